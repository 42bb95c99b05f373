import { useEffect } from 'react'
import { useCancel11Default, useSenderLines, type SenderLine } from '../../../lib/lines'

/** The sender part of every send wizard's draft. */
export interface SenderDraft {
  sender: string
  cancel11: boolean
  /** The user changed the cancel-11 switch; a new line no longer resets it. */
  cancel11Touched: boolean
  /** The chosen line is an advertising one: the «لغو۱۱» footer is mandatory (the server refuses it off). */
  advertising?: boolean
}

export const EMPTY_SENDER: SenderDraft = { sender: '', cancel11: true, cancel11Touched: false, advertising: false }

/** The line to preselect: the default one, else the first. */
export function defaultSender(lines: SenderLine[]): SenderLine | undefined {
  return lines.find((l) => l.is_default) ?? lines[0]
}

/**
 * Choosing a line: an advertising line always carries cancel-11; on a service line it
 * keeps what the user set, else starts as the account's default (/settings; off when unset).
 */
export function withSender<D extends SenderDraft>(draft: D, line: SenderLine, cancel11Default = false): D {
  const advertising = line.kind === 'advertising'
  return {
    ...draft,
    sender: line.number,
    advertising,
    cancel11: advertising || (draft.cancel11Touched ? draft.cancel11 : cancel11Default),
  }
}

/**
 * Preselects the default line once the lines and the account's «لغو۱۱» default are
 * loaded and no line is chosen yet; returns that default for later line changes.
 */
export function useDefaultSender(current: string, choose: (line: SenderLine, cancel11Default: boolean) => void): boolean {
  const lines = useSenderLines()
  const c11 = useCancel11Default()
  useEffect(() => {
    const line = lines.data && defaultSender(lines.data)
    if (line && !current && c11.ready) choose(line, c11.value)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- choose is a fresh closure each render; the effect follows the data and the choice
  }, [lines.data, current, c11.ready])
  return c11.value
}
