import type { TestProject } from 'vitest/node';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the all-in-one server the suite runs against, e.g. http://127.0.0.1:41234. */
    baseURL: string;
  }
}

/** One built all-in-one server (fresh temporary DATA_DIR) for the whole run, stopped at the end. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
  };
}
