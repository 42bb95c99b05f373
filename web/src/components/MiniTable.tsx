import { Button, Table } from '@chakra-ui/react'
import { useState, type ReactNode } from 'react'
import { DownloadIcon } from './outlineIcons'
import { toaster } from '../lib/toaster'
import { ServerMessage } from './ServerMessage'

export interface MiniColumn {
  title: string
  align?: 'start' | 'end'
  width?: string
}

/** A small bordered, scrollable table: a header row from `columns`, body rows as children. */
export function MiniTable({ caption, columns, children, maxH, maxW, testId }: {
  caption: string
  columns: MiniColumn[]
  children: ReactNode
  maxH?: string
  maxW?: string
  testId?: string
}) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg" maxH={maxH} maxW={maxW}>
      <Table.Root size="sm" stickyHeader={!!maxH} aria-label={caption} data-testid={testId}>
        <Table.Header>
          <Table.Row bg="app.raised">
            {columns.map((c) => (
              <Table.ColumnHeader key={c.title} textAlign={c.align ?? 'start'} w={c.width}>
                {c.title}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  )
}

/** A button that downloads through the API (auth header) and toasts a failure. */
export function DownloadAction({ run, label, testId, variant = 'outline' }: { run: () => Promise<void>; label: string; testId?: string; variant?: 'outline' | 'ghost' }) {
  const [busy, setBusy] = useState(false)
  const click = async () => {
    setBusy(true)
    try {
      await run()
    } catch (err) {
      toaster.create({ type: 'error', description: <ServerMessage error={err} /> })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button size="sm" variant={variant} colorPalette={variant === 'ghost' ? 'brand' : undefined} onClick={click} loading={busy} data-testid={testId}>
      <DownloadIcon /> {label}
    </Button>
  )
}
