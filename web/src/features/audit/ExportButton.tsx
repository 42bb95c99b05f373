import { Button, HStack, Progress, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { errorText, type Query } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { exportAuditLog } from './api'

/** «۱۲ کیلوبایت» for a byte count. */
export function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${toPersianDigits(Math.max(1, Math.round(bytes / 1024)))} کیلوبایت`
  return `${toPersianDigits((bytes / 1024 / 1024).toFixed(1))} مگابایت`
}

/** Downloads the filtered log as Excel, showing what has arrived so far. */
export function ExportButton({ filters }: { filters: Query }) {
  const [progress, setProgress] = useState<{ received: number; total: number } | null>(null)
  const run = async () => {
    setProgress({ received: 0, total: 0 })
    try {
      await exportAuditLog(filters, (received, total) => setProgress({ received, total }))
    } catch (err) {
      toaster.create({ type: 'error', description: errorText(err) })
    } finally {
      setProgress(null)
    }
  }
  const busy = progress !== null
  return (
    <HStack gap="3" minW={{ base: 'full', md: 'auto' }}>
      <Button variant="outline" size="sm" onClick={run} loading={busy} loadingText="در حال آماده‌سازی" data-testid="audit-export">
        دریافت فایل اکسل
      </Button>
      {busy && (
        <HStack gap="2" flex="1" minW="40" aria-live="polite">
          <Progress.Root
            value={progress.total ? (progress.received / progress.total) * 100 : null}
            size="xs"
            colorPalette="brand"
            flex="1"
            aria-label="پیشرفت دریافت فایل"
          >
            <Progress.Track rounded="full">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
            {progress.received ? sizeText(progress.received) : 'در حال آماده‌سازی'}
          </Text>
        </HStack>
      )}
    </HStack>
  )
}
