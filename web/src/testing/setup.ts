import '@testing-library/jest-dom/vitest'
import { configure } from '@testing-library/react'

// make test runs vitest beside the Go tests and the end-to-end run on two cores, so a
// render that takes 100 ms alone can take seconds (more than 10 at a load of 30).
// findBy* and waitFor wait up to 25 s (not the default 1 s): a real failure still
// fails, only later.
configure({ asyncUtilTimeout: 25_000 })
