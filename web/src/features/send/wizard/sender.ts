import { useEffect } from 'react'
import { useSenderLines, type SenderLine } from '../../../lib/lines'

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
 * is off until the user sets it.
 */
export function withSender<D extends SenderDraft>(draft: D, line: SenderLine): D {
  const advertising = line.kind === 'advertising'
  return {
    ...draft,
    sender: line.number,
    advertising,
    cancel11: advertising || (draft.cancel11Touched && draft.cancel11),
  }
}

/** Preselects the default line once the lines are loaded and none is chosen yet. */
export function useDefaultSender(current: string, choose: (line: SenderLine) => void) {
  const lines = useSenderLines()
  useEffect(() => {
    const line = lines.data && defaultSender(lines.data)
    if (line && !current) choose(line)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- choose is a fresh closure each render; the effect follows the data and the choice
  }, [lines.data, current])
}
