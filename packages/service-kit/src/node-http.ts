// `import … from 'node:http'` in an ES module costs every process about 100 ms of CPU at boot:
// Node builds the module's ES facade by reading each export, and the WebSocket getters among
// them load Node's bundled undici. A builtin taken with getBuiltinModule skips the facade, so
// code that runs in the services reaches node:http through here (type imports are free).
export const nodeHttp = process.getBuiltinModule('node:http');
