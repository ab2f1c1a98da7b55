// Jest globalTeardown: stops the embedded database if globalSetup started one.
export default async function globalTeardown(): Promise<void> {
  await globalThis.__berthEmbeddedStop?.();
}
