import { createIcon } from '@chakra-ui/react'

const line = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const
const make = (displayName: string, d: string[]) =>
  createIcon({ displayName, viewBox: '0 0 24 24', path: d.map((p) => <path key={p} d={p} {...line} />) })

/** Icons the bulk-send and campaign pages need beyond the app's set. */
export const UploadIcon = make('Upload', ['M12 16V4', 'm7 9 5-5 5 5', 'M5 20h14'])
export const PauseIcon = make('Pause', ['M9 5v14', 'M15 5v14'])
export const PlayIcon = make('Play', ['M7 4.5v15l12-7.5-12-7.5Z'])
export const TrashIcon = make('Trash', ['M4 7h16', 'M9 7V4h6v3', 'M6 7l1 13h10l1-13', 'M10 11v5', 'M14 11v5'])
export const EditIcon = make('Edit', ['M4 20h4L19 9l-4-4L4 16v4Z', 'm13.5 6.5 4 4'])
export const RepeatIcon = make('Repeat', ['M4 11V9a3 3 0 0 1 3-3h12', 'm16 3 3 3-3 3', 'M20 13v2a3 3 0 0 1-3 3H5', 'm8 21-3-3 3-3'])
export const ListIcon = make('List', ['M9 6h11', 'M9 12h11', 'M9 18h11', 'M4.5 6h.01', 'M4.5 12h.01', 'M4.5 18h.01'])
