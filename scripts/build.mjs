/**
 * `npm run build`: each entry point of src/ (the `slink` command and its two worker threads)
 * becomes one ES module in dist/ holding the code and libraries it uses
 * (docs/adr/0007-bundled-build.md). Libraries that read their own files at run time stay in
 * node_modules. Types are checked by `npm run typecheck`.
 */
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

rmSync('dist', { recursive: true, force: true })
await build({
  entryPoints: ['src/cli/main.ts', 'src/threads/click-writer.ts', 'src/threads/click-retention.ts'],
  outbase: 'src',
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // A native driver, an optional one, and two packages that read their own files.
  external: ['better-sqlite3', 'pg-native', '@fastify/swagger', '@fastify/swagger-ui'],
  // The CommonJS libraries inside an ES module still find `require`, `__filename` and
  // `__dirname`.
  banner: {
    js: [
      "import { createRequire as slinkCreateRequire } from 'node:module'",
      "import { fileURLToPath as slinkFileURLToPath } from 'node:url'",
      "import { dirname as slinkDirname } from 'node:path'",
      'const require = slinkCreateRequire(import.meta.url)',
      'const __filename = slinkFileURLToPath(import.meta.url)',
      'const __dirname = slinkDirname(__filename)',
    ].join('\n'),
  },
  logLevel: 'warning',
})
