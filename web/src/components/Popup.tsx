import { Box, Portal, type BoxProps } from '@chakra-ui/react'
import { createContext, useContext, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react'
import { useCloseOnScroll, useOutsideClick } from './hooks'

/** Set by dialogs so that popups render inside them (focus trap and outside-click stay correct). */
export const PopupContainerContext = createContext<RefObject<HTMLElement | null> | null>(null)

/** Space needed below the anchor before a popup opens above it instead (spec §9). */
export const POPUP_FLIP_THRESHOLD = 350

export interface PopupProps extends Omit<BoxProps, 'position'> {
  open: boolean
  anchorRef: RefObject<HTMLElement | null>
  onClose: () => void
  /** 'anchor' makes the popup at least as wide as its anchor. */
  matchWidth?: boolean
  children: ReactNode
}

interface Place {
  top?: string
  bottom?: string
  left?: string
  right?: string
  minWidth?: string
  /** Placed next to the anchor, and then kept on screen. */
  ready?: boolean
  adjusted?: boolean
}

// Plain numbers would be read as spacing tokens (24 → 6rem): always pass pixels.
const px = (n: number) => `${Math.round(n)}px`

function place(anchor: HTMLElement, container: HTMLElement | null, matchWidth: boolean): Place {
  const a = anchor.getBoundingClientRect()
  const rtl = getComputedStyle(anchor).direction === 'rtl'
  const vw = document.documentElement.clientWidth || window.innerWidth
  const vh = document.documentElement.clientHeight || window.innerHeight
  const below = vh - a.bottom
  const above = below < POPUP_FLIP_THRESHOLD && a.top > below
  const c = container?.getBoundingClientRect() ?? { top: 0, left: 0, right: vw, bottom: vh }
  const scrollTop = container?.scrollTop ?? 0
  const p: Place = matchWidth ? { minWidth: px(a.width), ready: true } : { ready: true }
  if (above) p.bottom = px(c.bottom - a.top + 4 - scrollTop)
  else p.top = px(a.bottom - c.top + 4 + scrollTop)
  if (rtl) p.right = px(Math.max(0, c.right - a.right))
  else p.left = px(Math.max(0, a.left - c.left))
  return p
}

/**
 * A floating panel under (or, without room, above) its anchor. Closes on outside pointer-down,
 * Escape and page scroll beyond 40 px; renders in a portal, inside the nearest dialog if any.
 */
export function Popup({ open, anchorRef, onClose, matchWidth = true, children, ...rest }: PopupProps) {
  const container = useContext(PopupContainerContext)
  const ref = useRef<HTMLDivElement>(null)
  const [pos, setPos] = useState<Place>({})
  useOutsideClick(open, [ref, anchorRef], onClose)
  useCloseOnScroll(open, onClose, ref)

  useLayoutEffect(() => {
    if (!open || !anchorRef.current) return
    const update = () => anchorRef.current && setPos(place(anchorRef.current, container?.current ?? null, matchWidth))
    update()
    window.addEventListener('resize', update)
    return () => window.removeEventListener('resize', update)
  }, [open, anchorRef, container, matchWidth])

  // Keep the popup inside its container (the dialog, or the viewport) horizontally, e.g. a
  // calendar wider than a field near the edge. Measured relative to the container, as a dialog
  // may still be sliding in.
  useLayoutEffect(() => {
    const el = ref.current
    const anchor = anchorRef.current
    if (!el || !anchor || !pos.ready || pos.adjusted) return
    const a = anchor.getBoundingClientRect()
    const vw = document.documentElement.clientWidth || window.innerWidth
    const c = container?.current?.getBoundingClientRect() ?? { left: 0, right: vw }
    const w = el.offsetWidth
    const next: Place = { ...pos, adjusted: true }
    const startGap = a.right - w - c.left
    const endGap = c.right - (a.left + w)
    if (pos.right !== undefined && startGap < 8) next.right = px(Math.max(0, parseFloat(pos.right) - (8 - startGap)))
    if (pos.left !== undefined && endGap < 8) next.left = px(Math.max(0, parseFloat(pos.left) - (8 - endGap)))
    setPos(next)
  }, [pos, anchorRef, container])

  if (!open) return null
  return (
    <Portal container={container ?? undefined}>
      <Box
        ref={ref}
        position={container ? 'absolute' : 'fixed'}
        zIndex="popover"
        bg="bg.panel"
        color="fg"
        borderWidth="1px"
        borderColor="border"
        rounded="l2"
        shadow="lg"
        top={pos.top}
        bottom={pos.bottom}
        left={pos.left}
        right={pos.right}
        minWidth={pos.minWidth}
        visibility={pos.ready ? 'visible' : 'hidden'}
        {...rest}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            onClose()
            const a = anchorRef.current
            ;(a?.matches('input, button, [tabindex]') ? a : a?.querySelector<HTMLElement>('input, button'))?.focus()
          }
          rest.onKeyDown?.(e)
        }}
      >
        {children}
      </Box>
    </Portal>
  )
}
