// Module customization hooks (node:module register) for module-graph.mjs: every module URL resolved
// is posted to the main thread; a message from it is answered once all earlier URLs are posted,
// so the main thread knows it has them all.
let port;

export function initialize(data) {
  port = data.port;
  port.on("message", () => port.postMessage({ synced: true }));
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  port.postMessage({ url: resolved.url });
  return resolved;
}
