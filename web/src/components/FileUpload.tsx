import { Alert, Badge, Button, Center, Flex, HStack, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState, type DragEvent } from 'react'
import { ProgressBar } from './ProgressBar'
import { ErrorState } from './States'
import { FileIcon } from './outlineIcons'
import { formatNumber } from '../lib/format'
import { ServerMessage } from './ServerMessage'
import {
  acceptFor, checkUploadFile, fileApi, formatBytes, SEND_FILE_MAX_BYTES, uploadUserFile, useUserFile,
  type FilePurpose, type SamplePurpose, type UploadHandle, type UserFile,
} from '../lib/files'
import { UploadIcon } from './actionIcons'
import { DownloadAction } from './MiniTable'

interface Props {
  purpose: FilePurpose
  sample: SamplePurpose
  fileId: number | string | null
  onFileId: (id: number | string | null) => void
  /** A wizard validation message (e.g. «فایل را بارگذاری کنید»). */
  error?: string
}

const HINT: Record<FilePurpose, string> = {
  send: 'فرمت‌های مجاز: xlsx، csv و txt',
  contacts: 'فرمت‌های مجاز: xlsx، csv و txt',
  peer_to_peer: 'فقط اکسل (xlsx) با دو ستون پیام و شماره موبایل',
}

/** Downloads the sample file of an upload type. */
export function SampleButton({ sample }: { sample: SamplePurpose }) {
  return <DownloadAction run={() => fileApi.downloadSample(sample)} label="دریافت فایل نمونه" testId="sample-download" variant="ghost" />
}

function DropZone({ purpose, onPick, invalid }: { purpose: FilePurpose; onPick: (f: File) => void; invalid: boolean }) {
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const drop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    const f = e.dataTransfer.files?.[0]
    if (f) onPick(f)
  }
  return (
    <Center
      as="label"
      position="relative"
      flexDirection="column"
      gap="2"
      p={{ base: '6', md: '8' }}
      rounded="xl"
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={invalid ? 'border.error' : over ? 'brand.solid' : 'app.border'}
      bg={over ? 'brand.subtle' : 'app.raised'}
      cursor="pointer"
      textAlign="center"
      transition="border-color 0.15s, background 0.15s"
      _hover={{ borderColor: 'brand.solid' }}
      _focusWithin={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid="file-drop"
    >
      <Center boxSize="12" rounded="full" bg="brand.muted" color="brand.fg">
        <UploadIcon boxSize="6" />
      </Center>
      <Text fontWeight="semibold">فایل را اینجا رها کنید یا برای انتخاب بزنید</Text>
      <Text fontSize="sm" color="app.muted">
        {HINT[purpose]}
      </Text>
      <Text fontSize="xs" color="app.muted">
        {`حداکثر ${formatNumber(1_000_000)} ردیف و ${formatNumber(SEND_FILE_MAX_BYTES / 1024 / 1024)} مگابایت`}
      </Text>
      <input
        ref={input}
        type="file"
        accept={acceptFor(purpose)}
        data-testid="file-input"
        aria-label="انتخاب فایل"
        style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
        onChange={(e) => {
          const f = e.target.files?.[0]
          e.target.value = '' // the same file can be chosen again after an error
          if (f) onPick(f)
        }}
      />
    </Center>
  )
}

function FileCard({ file, onChange }: { file: UserFile; onChange: () => void }) {
  return (
    <Flex p="3" rounded="xl" borderWidth="1px" borderColor="app.border" bg="app.raised" gap="3" align="center" wrap="wrap" data-testid="file-ready">
      <HStack gap="3" flex="1 1 14rem" minW="0">
        <Center boxSize="10" rounded="lg" bg="green.subtle" color="green.fg" flexShrink={0}>
          <FileIcon boxSize="5" />
        </Center>
        <Stack gap="0" minW="0">
          <Text fontWeight="semibold" truncate dir="auto" title={file.name}>
            {file.name}
          </Text>
          <Text fontSize="xs" color="app.muted">
            {`${formatBytes(file.size)}، ${formatNumber(file.records)} ردیف`}
          </Text>
        </Stack>
      </HStack>
      <HStack gap="2" ms="auto">
        <Badge colorPalette="green" variant="subtle">
          آماده ارسال
        </Badge>
        <Button size="sm" variant="outline" onClick={onChange} data-testid="file-change">
          تغییر فایل
        </Button>
      </HStack>
    </Flex>
  )
}

/**
 * Upload with a real progress bar (bytes sent), then the parse progress (live `file.progress`
 * events and polling), then the file card; failures show the server's Persian file error.
 */
export function FileUpload({ purpose, sample, fileId, onFileId, error }: Props) {
  const [upload, setUpload] = useState<{ name: string; loaded: number; total: number } | null>(null)
  const [failure, setFailure] = useState<unknown>(null)
  const handle = useRef<UploadHandle | null>(null)
  const file = useUserFile(fileId)

  useEffect(() => () => handle.current?.abort(), [])

  const pick = (f: File) => {
    setFailure(null)
    const problem = checkUploadFile(f, purpose)
    if (problem) return setFailure(problem)
    onFileId(null)
    setUpload({ name: f.name, loaded: 0, total: f.size })
    const h = uploadUserFile(f, purpose, (loaded, total) => setUpload({ name: f.name, loaded, total }))
    handle.current = h
    h.promise
      .then((r) => onFileId(r.id))
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') setFailure(err)
      })
      .finally(() => {
        if (handle.current === h) handle.current = null
        setUpload(null)
      })
  }
  const reset = () => {
    setFailure(null)
    onFileId(null)
  }

  let body
  if (upload) {
    body = (
      <Stack gap="3" p="4" rounded="xl" borderWidth="1px" borderColor="app.border" bg="app.raised" data-testid="upload-progress" data-loaded={upload.loaded}>
        <HStack justify="space-between" gap="3">
          <Text fontWeight="semibold" truncate dir="auto">
            {upload.name}
          </Text>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => handle.current?.abort()}>
            لغو بارگذاری
          </Button>
        </HStack>
        <ProgressBar value={upload.loaded} max={upload.total || 1} label="بارگذاری فایل" showValue />
        <Text fontSize="xs" color="app.muted">
          {`${formatBytes(upload.loaded)} از ${formatBytes(upload.total)}`}
        </Text>
      </Stack>
    )
  } else if (fileId !== null && file.isPending) {
    body = <Skeleton h="20" rounded="xl" />
  } else if (fileId !== null && file.isError) {
    body = <ErrorState py="4" onRetry={() => file.refetch()} action={<Button size="sm" variant="ghost" onClick={reset}>انتخاب فایل دیگر</Button>} />
  } else if (fileId !== null && file.data?.status === 'parsing') {
    body = (
      <Stack gap="3" p="4" rounded="xl" borderWidth="1px" borderColor="app.border" bg="app.raised" data-testid="parse-progress" data-progress={file.data.progress}>
        <Text fontWeight="semibold" truncate dir="auto">
          {file.data.name}
        </Text>
        <ProgressBar value={file.data.progress ?? 0} label="پردازش فایل" showValue colorPalette="blue" />
        <Text fontSize="xs" color="app.muted">
          {file.data.records ? `${formatNumber(file.data.records)} ردیف خوانده شد` : 'فایل بارگذاری شد و در حال بررسی است'}
        </Text>
      </Stack>
    )
  } else if (fileId !== null && file.data?.status === 'ready') {
    body = <FileCard file={file.data} onChange={reset} />
  } else {
    body = <DropZone purpose={purpose} onPick={pick} invalid={!!error} />
  }

  const fileFailed = fileId !== null && file.data?.status === 'failed'
  return (
    <Stack gap="3">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Text fontWeight="medium">فایل گیرندگان</Text>
        <SampleButton sample={sample} />
      </HStack>
      {fileFailed ? <DropZone purpose={purpose} onPick={pick} invalid /> : body}
      {(failure || fileFailed) && (
        <Alert.Root status="error" rounded="lg" data-testid="file-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>فایل پذیرفته نشد</Alert.Title>
            <Alert.Description>{fileFailed ? file.data?.error || 'خطا در پردازش فایل' : <ServerMessage error={failure} />}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {error && !failure && !fileFailed && (
        <Text fontSize="sm" color="fg.error" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  )
}
