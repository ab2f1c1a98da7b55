// A complete scheduler extender for berth (docs/out-of-process-plugins.md), plain Node, no
// dependencies: hosts whose name starts with "cpu-" are refused by /filter, and /prioritize
// scores hosts with "gpu" in their name 10, the others 1. Run: node docs/examples/gpu-extender.cjs
'use strict';
const { createServer } = require('node:http');

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

/** The extender's HTTP server (not yet listening). */
function createExtender() {
  return createServer(async (req, res) => {
    const send = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    let args;
    try {
      args = await readJson(req); // { spec, nodeNames, nodes }
    } catch {
      return send(400, { error: 'body is not JSON' });
    }
    if (req.url === '/scheduler/filter') {
      const failedNodes = {};
      for (const name of args.nodeNames) {
        if (name.startsWith('cpu-')) failedNodes[name] = 'no GPU on this host';
      }
      const nodeNames = args.nodeNames.filter((n) => !(n in failedNodes));
      return send(200, { nodeNames, failedNodes, error: '' });
    }
    if (req.url === '/scheduler/prioritize') {
      return send(
        200,
        args.nodeNames.map((host) => ({ host, score: host.includes('gpu') ? 10 : 1 })),
      );
    }
    return send(404, { error: `unknown verb ${req.url}` });
  });
}

module.exports = { createExtender };

if (require.main === module) {
  createExtender().listen(8888, '127.0.0.1', () => console.log('extender on :8888'));
}
