/**
 * The banner carousel's drag and swipe rules (spec §9 Banners: drag threshold 0.1,
 * pixel thresholds 15 and 10), kept apart from the component so they are tested alone.
 */

/** Fraction of the carousel's width a drag must pass, on release, to change the slide. */
export const DRAG_THRESHOLD = 0.1
/** Horizontal movement (px) before a press becomes a drag. */
export const DRAG_START_PX = 15
/** Vertical movement (px) that, reached first, makes the press a page scroll, not a drag. */
export const SCROLL_PX = 10

/** A press on the carousel: undecided, a horizontal drag, or a vertical scroll. */
export type DragState = 'pending' | 'drag' | 'scroll'

/** Decides a pending press from how far it moved (dx, dy in px); a decided press stays decided. */
export function dragState(state: DragState, dx: number, dy: number): DragState {
  if (state !== 'pending') return state
  if (Math.abs(dx) >= DRAG_START_PX && Math.abs(dx) > Math.abs(dy)) return 'drag'
  if (Math.abs(dy) >= SCROLL_PX) return 'scroll'
  return 'pending'
}

/**
 * The slide step a released drag makes: 0 below DRAG_THRESHOLD of the width. The
 * panel is right-to-left, so the next slide comes from the left: dragging to the
 * right (dx > 0) shows the next one (+1), to the left the previous one (-1).
 */
export function dragStep(state: DragState, dx: number, width: number): -1 | 0 | 1 {
  if (state !== 'drag' || width <= 0 || Math.abs(dx) < DRAG_THRESHOLD * width) return 0
  return dx > 0 ? 1 : -1
}
