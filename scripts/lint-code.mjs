#!/usr/bin/env node
// Code-reading rules biome has no rule for (docs/architecture.md#code-that-explains-itself):
// - no single-letter names, except a short lambda's parameters (three lines at most), a loop's or a
//   callback's index (`i`, `j`), and the two every file shares: `t` (translation) and `z` (zod);
// - no comment block over 10 lines (narratives belong in docs/);
// - no citations of issues or of documents outside the repository.
// `node scripts/lint-code.mjs [paths...]` prints each finding and exits 1 when there is one.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('..', import.meta.url).pathname;
const ROOTS = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage', 'artifacts']);
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const MAX_COMMENT_LINES = 10;
const ALLOWED_NAMES = new Set(['_', 't', 'z']);
const CITATION = /\bissue #?\d+\b|§\s*\d|\.\.\/shared\/|\bspec(ification)? (section|§)/i;

function* files(path) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (SOURCE.test(path) && !path.endsWith('.d.ts')) yield path;
    return;
  }
  for (const name of readdirSync(path)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    yield* files(join(path, name));
  }
}

/** A lambda short enough that a one-letter parameter reads fine: at most three lines. */
const SHORT_LAMBDA_LINES = 3;
function isShortLambda(node, source) {
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return false;
  const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return end - start < SHORT_LAMBDA_LINES;
}

/** `i` and `j` are indices (a loop's, a callback's `items.map((item, i) => …)`). */
const INDEX_NAMES = new Set(['i', 'j']);
function isCallbackIndex(node) {
  return INDEX_NAMES.has(node.name.text);
}

function isLoopIndex(decl) {
  const list = decl.parent;
  const loop = list?.parent;
  return ts.isVariableDeclarationList(list) && loop && (ts.isForStatement(loop) || ts.isForOfStatement(loop) || ts.isForInStatement(loop)) && loop.initializer === list;
}

function nameFindings(source, report) {
  const visit = (node) => {
    let name;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && !isLoopIndex(node) && !INDEX_NAMES.has(node.name.text)) name = node.name;
    else if (ts.isParameter(node) && ts.isIdentifier(node.name) && !isShortLambda(node.parent, source) && !isCallbackIndex(node)) name = node.name;
    else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) name = node.name;
    else if (ts.isImportSpecifier(node) || ts.isNamespaceImport(node) || ts.isImportClause(node)) name = node.name;
    else if (ts.isBindingElement(node) && ts.isIdentifier(node.name) && node.propertyName) name = node.name;
    if (name && name.text.length === 1 && !ALLOWED_NAMES.has(name.text)) report(name.getStart(source), `single-letter name "${name.text}"`);
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** Every comment, found around the syntax tree's nodes (a plain scanner misreads JSX text). */
function commentsOf(text, source) {
  const seen = new Map();
  const add = (ranges) => {
    for (const range of ranges ?? []) seen.set(range.pos, range);
  };
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.values()].sort((one, other) => one.pos - other.pos);
}

function commentFindings(text, source, report) {
  let run = null;
  const close = () => {
    if (run && run.lines > MAX_COMMENT_LINES) report(run.start, `comment block of ${run.lines} lines (at most ${MAX_COMMENT_LINES})`);
    run = null;
  };
  for (const range of commentsOf(text, source)) {
    const comment = text.slice(range.pos, range.end);
    if (CITATION.test(comment)) report(range.pos + comment.search(CITATION), 'cites an issue or a document outside the repository');
    const line = source.getLineAndCharacterOfPosition(range.pos).line;
    const lines = comment.split('\n').length;
    const single = range.kind === ts.SyntaxKind.SingleLineCommentTrivia;
    const between = run ? text.slice(run.end, range.pos) : '';
    if (single && run?.single && line === run.lastLine + 1 && /^\s*$/.test(between)) {
      run.lines += 1;
      run.lastLine = line;
      run.end = range.end;
      continue;
    }
    close();
    run = { start: range.pos, end: range.end, lines, single, lastLine: line + lines - 1 };
  }
  close();
}

const targets = process.argv.slice(2).length ? process.argv.slice(2) : ROOTS.map((dir) => join(ROOT, dir));
let count = 0;
for (const target of targets) {
  for (const file of files(target)) {
    const text = readFileSync(file, 'utf8');
    const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('.ts') || file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    const report = (pos, message) => {
      const { line, character } = source.getLineAndCharacterOfPosition(pos);
      console.log(`${relative(ROOT, file)}:${line + 1}:${character + 1} ${message}`);
      count += 1;
    };
    nameFindings(source, report);
    commentFindings(text, source, report);
  }
}
if (count) {
  console.log(`lint-code: ${count} finding${count === 1 ? '' : 's'}`);
  process.exit(1);
}
console.log('lint-code: clean');
