import { Button, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { Modal } from './Overlays'
import { ServerMessage } from './ServerMessage'

interface Props {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  confirmLabel: string
  onConfirm: () => void
  loading?: boolean
  colorPalette?: string
  /** The failed attempt's error, shown above the buttons. */
  error?: unknown
  /** data-testid of the confirm button. */
  testId?: string
}

/** A small «are you sure» dialog with cancel and a coloured confirm button. */
export function ConfirmDialog({ open, onClose, title, children, confirmLabel, onConfirm, loading, colorPalette = 'red', error, testId }: Props) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            انصراف
          </Button>
          <Button colorPalette={colorPalette} loading={loading} onClick={onConfirm} data-testid={testId}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <Stack gap="3">
        <Text>{children}</Text>
        {!!error && <ServerMessage error={error} color="fg.error" fontSize="sm" />}
      </Stack>
    </Modal>
  )
}
