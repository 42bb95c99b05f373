import { describe, expect, it } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import { Suspense } from 'react'
import { lazyPage } from './chunkReload'

const Page = ({ name }: { name: string }) => <p>page {name}</p>

describe('lazyPage', () => {
  it('renders a preloaded page in the first commit, without the Suspense fallback', async () => {
    let calls = 0
    const Lazy = lazyPage(async () => {
      calls++
      return { default: Page }
    })
    await Lazy.preload()
    await Lazy.preload()
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy name="a" />
      </Suspense>,
    )
    expect(screen.getByText('page a')).toBeTruthy() // synchronously, no fallback first
    expect(screen.queryByText('loading')).toBeNull()
    expect(calls).toBe(1)
  })

  it('suspends on a page not loaded yet, then shows it', async () => {
    const Lazy = lazyPage(async () => ({ default: Page }))
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy name="b" />
      </Suspense>,
    )
    expect(screen.getByText('loading')).toBeTruthy()
    await act(async () => {
      await Lazy.preload()
    })
    expect(await screen.findByText('page b')).toBeTruthy()
  })
})
