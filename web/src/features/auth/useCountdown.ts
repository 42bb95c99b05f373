import { useCallback, useEffect, useState } from 'react'
import { toPersianDigits } from '../../lib/digits'

/** Seconds left until a resend is allowed; restart(n) starts again from n. */
export function useCountdown(initial: number) {
  const [deadline, setDeadline] = useState(() => Date.now() + initial * 1000)
  const [left, setLeft] = useState(initial)

  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)))
    tick()
    const t = setInterval(tick, 250)
    return () => clearInterval(t)
  }, [deadline])

  const restart = useCallback((seconds: number) => setDeadline(Date.now() + seconds * 1000), [])
  return { left, restart }
}

/** 95 → «۱:۳۵». */
export function formatCountdown(seconds: number): string {
  const m = Math.floor(seconds / 60)
  const s = seconds % 60
  return toPersianDigits(`${m}:${String(s).padStart(2, '0')}`)
}
