import type { WebhookChaos } from './delivery';

/** What a control drives in its registration: the outbox. */
export interface ControlledQueue<Id, D> {
  list(): D[];
  flush(ignoreBackoff: boolean): Promise<void>;
  drop(id: Id): void;
  pause(): void;
  resume(): void;
  reset(): void;
}

/** ...and the provider's state. */
export interface ControlledEngine {
  tick(): void;
  reset(): void;
}

/** One live registration as its control sees it. */
export interface Bound<E extends ControlledEngine, Q> {
  engine: E;
  queue: Q;
}

/** What the plugin reaches through a control. */
export interface ControlInternals<B, C extends WebhookChaos> {
  bind(bound: B): void;
  unbind(bound: B): void;
  chaos(): C;
  /** Consumes one failFirst attempt: true when the attempt must fail. */
  takeFailure(): boolean;
}

/**
 * The methods every payment stand-in's control has, and does the same way (each provider's control
 * interface extends it and says more where its provider differs).
 */
export interface WebhookControlMethods<C extends WebhookChaos, D, Id, S> {
  /**
   * Webhook chaos; the fields given replace the current ones (`setChaos({})` changes nothing,
   * `reset()` clears it). `failFirst` sets how many of the next attempts fail.
   */
  setChaos(chaos: C): void;
  /** Every delivery and where it stands (attempts, state, last status), oldest first. */
  deliveries(): D[];
  /**
   * Sends everything due now and waits for the attempts (those under way too). With `ignoreBackoff`,
   * what waits for a retry is sent at once, again until nothing is pending. Works while paused.
   */
  flush(options?: { ignoreBackoff?: boolean }): Promise<void>;
  /** Never deliver this event (for reconciliation tests). */
  drop(id: Id): void;
  /** Stops background delivery (events queue up until resume() or flush()). */
  pause(): void;
  resume(): void;
  /** Applies what the clock made due (renewals, scheduled cancellations); every request does it too. */
  tick(): void;
  /** Forgets all state and deliveries, clears the chaos and resumes delivery. */
  reset(): void;
  /** A JSON copy of the state to carry on from later (deliveries are not in it). */
  snapshot(): S;
  /**
   * Replaces the state with a snapshot's, checked whole first: anything malformed throws the
   * provider's snapshot error naming the first bad field, and nothing changes.
   */
  restore(snapshot: unknown): void;
}

/** How one provider's control is named and what its chaos and snapshots are. */
export interface ControlSpec<E extends ControlledEngine, S> {
  /** The control's type, e.g. `PaddleSandboxControl` (starts error messages; its factory is `create<control>`). */
  control: string;
  /** The plugin, e.g. `paddleSandbox`. */
  plugin: string;
  /** The plugin option that takes the control. Default `control`. */
  option?: string;
  /** What the control must be attached to. Default: `a registered <plugin>`. */
  attachedTo?: string;
  /** Chaos switches that are probabilities besides `duplicate` (FastSpring's `reorder`). */
  probabilities?: readonly string[];
  snapshot(engine: E): S;
  restore(engine: E, snapshot: unknown): void;
  /** The provider's snapshot error, rethrown with the control's name in front. */
  SnapshotError: new (message: string) => Error;
}

function probability(name: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && value >= 0 && value <= 1)) throw new RangeError(`setChaos: ${name} must be a probability from 0 to 1, not ${value}`);
}

function checkChaos(chaos: WebhookChaos, probabilities: readonly string[]): void {
  if (chaos === null || typeof chaos !== 'object') throw new TypeError('setChaos: expects an object');
  for (const name of ['duplicate', ...probabilities]) probability(name, (chaos as Record<string, unknown>)[name]);
  if (chaos.failFirst !== undefined && !(Number.isInteger(chaos.failFirst) && chaos.failFirst >= 0)) {
    throw new RangeError(`setChaos: failFirst must be a whole number >= 0, not ${chaos.failFirst}`);
  }
  if (chaos.shuffle !== undefined && typeof chaos.shuffle !== 'boolean') throw new TypeError('setChaos: shuffle must be a boolean');
}

/**
 * The controls of one provider: `create()` makes a control's shared half (chaos, delivery, reset,
 * snapshot, restore) and registers its internals for the plugin, which finds them with `internals()`.
 * A control drives one live registration at a time; its methods throw until one binds it.
 */
export class ControlRegistry<T extends object, E extends ControlledEngine, Q extends ControlledQueue<Id, D>, C extends WebhookChaos, D, Id, S> {
  readonly #spec: ControlSpec<E, S>;
  readonly #internals = new WeakMap<T, ControlInternals<Bound<E, Q>, C>>();

  constructor(spec: ControlSpec<E, S>) {
    this.#spec = spec;
  }

  /** The internals of a control made by this registry (else a TypeError naming its factory, `create<control>()`). */
  internals(control: T): ControlInternals<Bound<E, Q>, C> {
    const found = this.#internals.get(control);
    const { plugin, option = 'control', control: name } = this.#spec;
    if (!found) throw new TypeError(`${plugin}: ${option} must come from create${name}()`);
    return found;
  }

  /**
   * Makes a control: `build` gets `need(what)` (the bound registration, or an error naming the method)
   * and the shared methods, and returns the whole control, which is registered.
   */
  create(build: (need: (what: string) => Bound<E, Q>, shared: WebhookControlMethods<C, D, Id, S>) => T): T {
    const spec = this.#spec;
    const probabilities = spec.probabilities ?? [];
    const cleared = () => Object.fromEntries([['duplicate', 0], ['shuffle', false], ...probabilities.map((p) => [p, 0])]) as Record<string, number | boolean>;
    let bound: Bound<E, Q> | null = null;
    let chaos = cleared();
    let failuresLeft = 0;
    const need = (what: string): Bound<E, Q> => {
      if (!bound) throw new Error(`${spec.control}.${what}: the control is not attached to ${spec.attachedTo ?? `a registered ${spec.plugin}`} yet (await app.ready()).`);
      return bound;
    };
    const shared: WebhookControlMethods<C, D, Id, S> = {
      setChaos(next) {
        checkChaos(next, probabilities);
        const given = next as unknown as Partial<Record<string, number | boolean>>;
        chaos = Object.fromEntries(Object.entries(chaos).map(([k, v]) => [k, given[k] ?? v]));
        if (next.failFirst !== undefined) failuresLeft = next.failFirst;
      },
      deliveries: () => need('deliveries').queue.list(),
      flush: (options) => need('flush').queue.flush(options?.ignoreBackoff === true),
      drop: (id) => need('drop').queue.drop(id),
      pause: () => need('pause').queue.pause(),
      resume: () => need('resume').queue.resume(),
      tick: () => need('tick').engine.tick(),
      reset() {
        const bound = need('reset');
        chaos = cleared();
        failuresLeft = 0;
        bound.queue.reset();
        bound.engine.reset();
        bound.queue.resume();
      },
      snapshot: () => spec.snapshot(need('snapshot').engine),
      restore(snapshot) {
        const bound = need('restore');
        try {
          spec.restore(bound.engine, snapshot);
        } catch (err) {
          if (err instanceof spec.SnapshotError) throw new spec.SnapshotError(`${spec.control}.restore: ${err.message}`);
          throw err;
        }
      },
    };
    const control = build(need, shared);
    this.#internals.set(control, {
      bind(next) {
        if (bound && bound !== next) throw new Error(`This ${spec.control} already drives another live ${spec.plugin} registration: create one control per registration.`);
        bound = next;
      },
      unbind(old) {
        if (bound === old) bound = null;
      },
      chaos: () => ({ ...chaos, failFirst: failuresLeft }) as C,
      takeFailure() {
        if (failuresLeft <= 0) return false;
        failuresLeft--;
        return true;
      },
    });
    return control;
  }
}
