// Runs the end-to-end tests with node:test against PANEL_URL (default http://127.0.0.1:8080).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const panel = (process.env.PANEL_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

if (!existsSync(chromium)) {
  console.error(`e2e: ${chromium} is missing — install it with: apt-get install -y chromium`)
  process.exit(1)
}
const up = await fetch(`${panel}/login`).then((r) => r.ok, () => false)
if (!up) {
  console.error(`e2e: the panel is not reachable at ${panel} (start it with make run, or set PANEL_URL)`)
  process.exit(1)
}

const only = process.argv.slice(2)
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort()
  .map((f) => join(here, f))

// One file at a time: the machine has two cores and each file drives its own browser.
const res = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit', env: process.env })
process.exit(res.status ?? 1)
