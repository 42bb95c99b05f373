import { Button, Flex, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useRef, useState } from 'react'
import { FormField } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, StaleNote } from '../../components/States'
import { downloadFile, errorText, isApiError } from '../../lib/api'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { ReviewBadge } from './parts'
import { useDocuments, useRemoveDocument, useUploadDocument, type ProfileDocument } from './api'

const MAX = 5 * 1024 * 1024

function DocumentRow({ d }: { d: ProfileDocument }) {
  const remove = useRemoveDocument()
  return (
    <Flex gap="3" py="3" borderBottomWidth="1px" borderColor="app.border" align="center" wrap="wrap" data-testid="document-row">
      <Stack gap="0.5" flex="1" minW="48">
        <Flex gap="2" align="center">
          <Text fontWeight="medium">{d.kind_title}</Text>
          <ReviewBadge status={d.status} />
        </Flex>
        <Text fontSize="xs" color="app.muted">{d.file_name} · {formatJalaliDateTime(d.created_at)}</Text>
        {d.status === 'rejected' && d.reason && <Text fontSize="sm" color="red.fg">دلیل رد: {d.reason}</Text>}
      </Stack>
      <Button size="xs" variant="ghost" onClick={() => void downloadFile(`/user/documents/${d.id}/file`, {}, d.file_name || 'document')}>مشاهده</Button>
      {d.status !== 'approved' && (
        <Button size="xs" variant="outline" colorPalette="red" loading={remove.isPending}
          onClick={() => remove.mutate(d.id, { onError: (err) => toaster.create({ type: 'error', description: errorText(err) }) })}>
          حذف
        </Button>
      )}
    </Flex>
  )
}

/** /profile/documents: upload documents and follow their review. */
export default function DocumentsPage() {
  const docs = useDocuments()
  const upload = useUploadDocument()
  const [kind, setKind] = useState('national_card')
  const input = useRef<HTMLInputElement>(null)
  const pick = (file: File | undefined) => {
    if (!file) return
    if (file.size > MAX) return void toaster.create({ type: 'error', description: 'حجم فایل مدرک باید حداکثر ۵ مگابایت باشد' })
    upload.mutate({ kind, file }, {
      onSuccess: () => toaster.create({ type: 'success', description: 'مدرک بارگذاری شد و در انتظار بررسی است' }),
      onError: (err) => toaster.create({ type: 'error', description: (isApiError(err) && (err.fieldError('file') ?? err.fieldError('kind'))) || errorText(err) }),
    })
  }
  return (
    <Stack gap="4">
      <SectionCard title="بارگذاری مدرک" description="تصویر JPG یا PNG یا فایل PDF تا ۵ مگابایت. مدارک پس از بررسی پشتیبانی تایید می‌شوند.">
        <Flex gap="3" align="flex-end" wrap="wrap">
          <FormField label="نوع مدرک">
            <NativeSelect.Root minW="56">
              <NativeSelect.Field value={kind} onChange={(e) => setKind(e.target.value)} data-testid="document-kind">
                {Object.entries(docs.data?.kinds ?? { national_card: 'کارت ملی' }).map(([k, t]) => <option key={k} value={k}>{t}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <input ref={input} type="file" hidden accept="image/jpeg,image/png,application/pdf" data-testid="document-input"
            onChange={(e) => { pick(e.target.files?.[0]); e.target.value = '' }} />
          <Button colorPalette="brand" loading={upload.isPending} onClick={() => input.current?.click()}>انتخاب فایل</Button>
        </Flex>
      </SectionCard>
      <SectionCard title="مدارک من">
        {docs.isError && docs.data && <StaleNote />}
        {docs.isPending ? <Skeleton h="24" /> : !docs.data ? <ErrorState description={errorText(docs.error)} onRetry={() => docs.refetch()} /> :
          docs.data.documents.length === 0 ? <EmptyState description="هنوز مدرکی بارگذاری نکرده‌اید." /> :
            docs.data.documents.map((d) => <DocumentRow key={d.id} d={d} />)}
      </SectionCard>
    </Stack>
  )
}
