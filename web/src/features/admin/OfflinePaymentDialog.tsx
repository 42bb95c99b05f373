import { Alert, Box, Button, Flex, HStack, Image, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { Modal } from '../../components/Overlays'
import { ErrorState, LoadingState, StaleNote } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useOfflinePayment, useOfflineReceipt, type OfflineTransferReport } from './api'

/** A blob's object URL for the life of the component. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!blob) return
    const u = URL.createObjectURL(blob)
    setUrl(u)
    return () => URL.revokeObjectURL(u)
  }, [blob])
  return url
}

const stateLabels: Record<OfflineTransferReport['state'], string> = {
  pending: 'در انتظار بررسی',
  approved: 'تأییدشده',
  rejected: 'ردشده',
}

/** The other reports of the same transfer: a warning the reviewer sees before deciding. */
function OtherReports({ others }: { others: OfflineTransferReport[] }) {
  return (
    <Alert.Root status="warning" rounded="lg" data-testid="offline-others">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>این واریز گزارش دیگری هم دارد</Alert.Title>
        <Alert.Description>
          <Stack gap="1" mt="1">
            {others.map((o) => (
              <Text key={o.id} fontSize="sm">
                گزارش {toPersianDigits(o.id)} — حساب {o.account_name} ({toPersianDigits(o.account_id)})،{' '}
                {formatRial(o.amount)}، {stateLabels[o.state]}، {formatJalaliDateTime(o.created_at)}
              </Text>
            ))}
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  )
}

/** The details and receipt of an offline payment in the review queue. */
export function OfflinePaymentDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const p = useOfflinePayment(id)
  const receipt = useOfflineReceipt(id)
  const url = useObjectUrl(receipt.data)
  const d = p.data
  const rows: [string, string][] = d
    ? [
        ['روش', d.method === 'card' ? 'کارت به کارت' : 'واریز بانکی'],
        ['حساب', toPersianDigits(d.account_id)],
        ['مبلغ واریزی', formatRial(d.amount)],
        ['مالیات کسرشده', formatRial(d.tax)],
        ['مبلغ شارژ پس از تایید', formatRial(d.credit)],
        [d.method === 'card' ? 'کارت مبدا' : 'شبای مبدا', toPersianDigits(d.source)],
        ['شماره پیگیری', toPersianDigits(d.tracking_number)],
        ['زمان واریز', formatJalaliDateTime(d.transferred_at)],
        ['زمان ثبت', formatJalaliDateTime(d.created_at)],
      ]
    : []
  return (
    <Modal open onClose={onClose} title={`پرداخت آفلاین ${toPersianDigits(id)}`} size="lg">
      {p.isError && p.data && <StaleNote />}
      {p.isPending ? <LoadingState /> : !p.data ? <ErrorState onRetry={() => p.refetch()} /> : (
        <Stack gap="4" data-testid="offline-detail">
          {d && d.others && d.others.length > 0 && <OtherReports others={d.others} />}
          <Stack gap="1" fontSize="sm">
            {rows.map(([label, value]) => (
              <Flex key={label} justify="space-between" gap="3">
                <Text color="fg.muted">{label}</Text>
                <Text as="bdi">{value}</Text>
              </Flex>
            ))}
          </Stack>
          <Box borderWidth="1px" rounded="md" p="2" textAlign="center">
            {receipt.isPending && <LoadingState title="در حال دریافت رسید" />}
            {receipt.isError && <ErrorState title="رسید دریافت نشد" onRetry={() => receipt.refetch()} />}
            {url && d?.receipt_type.startsWith('image/') && (
              <Image src={url} alt="تصویر رسید" maxH="480px" mx="auto" objectFit="contain" data-testid="offline-receipt-image" />
            )}
            {url && (
              <HStack justify="center" mt="2">
                <Button asChild size="sm" variant="outline">
                  <a href={url} download={`receipt-${id}${d?.receipt_type === 'application/pdf' ? '.pdf' : ''}`}>دریافت فایل رسید</a>
                </Button>
              </HStack>
            )}
          </Box>
        </Stack>
      )}
    </Modal>
  )
}
