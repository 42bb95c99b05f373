import { Alert, Box, Button, Flex, Grid, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Modal } from '../../components/Overlays'
import { ProgressBar } from '../../components/ProgressBar'
import { LoadingState } from '../../components/States'
import { WizardStepper } from '../../components/WizardStepper'
import { ArrowLeftIcon, ArrowRightIcon, FileIcon } from '../../components/outlineIcons'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { useLiveEvent, useLiveStatus } from '../../lib/useLive'
import { FormField } from '../../components/FormField'
import { DownloadAction, MiniTable } from '../../components/MiniTable'
import { acceptFor, checkUploadFile, columnLabel, fileApi, uploadUserFile, useUserFile, type UploadHandle } from '../../lib/files'
import { CONTACTS_KEY, contactsApi, downloads, useAllFeatures } from './api'
import {
  featuresFor, guessMapping, IMPORT_STEPS, importPercent, mappingBody, mappingTargets, MESSAGES, type ImportJob, type Mapping,
} from './model'
import { GroupSelect } from './pickers'
import { ErrorAlert } from './ui'

/** Polling while the live socket is closed; a slow safety poll while it is open. */
const pollMs = (liveOpen: boolean) => (liveOpen ? 5000 : 1000)

/** The contacts import: group → upload → pre-flight → column mapping → progress and result. */
export function ImportWizard({ open, onClose, phonebookId }: { open: boolean; onClose: () => void; phonebookId?: number }) {
  return (
    <Modal open={open} onClose={onClose} title="ورود مخاطبین از فایل" size="lg" closeOnInteractOutside={false}>
      <WizardBody phonebookId={phonebookId} onClose={onClose} />
    </Modal>
  )
}

function Stat({ label, value, tone }: { label: string; value: number | undefined; tone?: string }) {
  return (
    <Stack gap="0.5" p="3" rounded="lg" bg="app.raised" borderWidth="1px" borderColor="app.border" data-testid={`stat-${label}`}>
      <Text fontSize="xs" color="app.muted">{label}</Text>
      <Text fontWeight="bold" fontSize="lg" color={tone}>{formatNumber(value ?? 0)}</Text>
    </Stack>
  )
}

const ERROR_COLUMNS = [{ title: 'ردیف' }, { title: 'مقدار' }, { title: 'خطا' }]

/** Row errors of a file or an import: row, value and reason (the first 20). */
function RowErrors({ title, rows }: { title: string; rows: Array<{ row: number; value: string; message: string }> }) {
  return (
    <MiniTable caption={title} columns={ERROR_COLUMNS} maxH="48">
      {rows.slice(0, 20).map((e, i) => (
        <Table.Row key={`${e.row}-${i}`}>
          <Table.Cell>{formatNumber(e.row)}</Table.Cell>
          <Table.Cell><bdi>{toPersianDigits(e.value || '—')}</bdi></Table.Cell>
          <Table.Cell>{e.message}</Table.Cell>
        </Table.Row>
      ))}
    </MiniTable>
  )
}

function WizardBody({ phonebookId, onClose }: { phonebookId?: number; onClose: () => void }) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const liveOpen = useLiveStatus() === 'OPEN'
  const [step, setStep] = useState(0)
  const [group, setGroup] = useState<string | null>(phonebookId ? String(phonebookId) : null)
  const [groupError, setGroupError] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [fileError, setFileError] = useState('')
  const [upload, setUpload] = useState<{ loaded: number; total: number } | null>(null)
  const [uploadError, setUploadError] = useState<unknown>(null)
  const [fileId, setFileId] = useState<number | string | null>(null)
  const [mapping, setMapping] = useState<Mapping>({})
  const [jobId, setJobId] = useState<number | string | null>(null)
  const [startError, setStartError] = useState<unknown>(null)
  const [starting, setStarting] = useState(false)
  const handle = useRef<UploadHandle | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const features = featuresFor(useAllFeatures().data, 'import')
  const targets = mappingTargets(features)

  useEffect(() => () => handle.current?.abort(), [])

  const uploaded = useUserFile(fileId)
  const jobKey = [...CONTACTS_KEY, 'import', String(jobId)]
  const job = useQuery({
    queryKey: jobKey,
    queryFn: ({ signal }) => contactsApi.importJob(jobId!, signal),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data?.status === 'running' || !q.state.data ? pollMs(liveOpen) : false),
  })

  useLiveEvent((m) => {
    const data = (m.data ?? {}) as Record<string, unknown>
    if (m.event === 'contacts.import' && jobId !== null && String(data.id) === String(jobId)) {
      qc.setQueryData<ImportJob>(jobKey, (old) => ({ ...(old ?? {}), ...data }) as ImportJob)
    }
  })

  const jobStatus = job.data?.status
  useEffect(() => {
    if (jobStatus === 'done' || jobStatus === 'failed') void qc.invalidateQueries({ queryKey: CONTACTS_KEY, predicate: (q) => q.queryKey[1] !== 'import' })
  }, [jobStatus, qc])

  const f = uploaded.data

  const startUpload = () => {
    if (!file) return setFileError(MESSAGES.chooseFile)
    const problem = checkUploadFile(file, 'contacts')
    if (problem) return setFileError(problem)
    setUploadError(null)
    setUpload({ loaded: 0, total: file.size })
    const h = uploadUserFile(file, 'contacts', (loaded, total) => setUpload({ loaded, total }))
    handle.current = h
    h.promise
      .then((r) => {
        setFileId(r.id)
        setMapping({})
        setStep(2)
      })
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') setUploadError(err)
      })
      .finally(() => {
        if (handle.current === h) handle.current = null
        setUpload(null)
      })
  }

  const start = async () => {
    if (fileId === null || !group) return
    setStarting(true)
    setStartError(null)
    try {
      const r = await contactsApi.startImport({ file_id: fileId, phonebook_id: Number(group), mapping: mappingBody(mapping) })
      if (r?.id !== undefined) qc.setQueryData([...CONTACTS_KEY, 'import', String(r.id)], { id: r.id, status: 'running', total: f?.valid ?? 0, added: 0, skipped: 0, invalid: 0, progress: 0 })
      setJobId(r.id)
      setStep(4)
    } catch (err) {
      setStartError(err)
    } finally {
      setStarting(false)
    }
  }

  const next = () => {
    if (step === 0) {
      if (!group) return setGroupError(MESSAGES.chooseGroup)
      setGroupError('')
      setStep(1)
    } else if (step === 1) startUpload()
    else if (step === 2) {
      // Pre-filled from the header titles the first time; kept when coming back.
      if (f) setMapping((m) => (Object.keys(m).length ? m : guessMapping(f.columns ?? [], features, f.mobile_col)))
      setStep(3)
    }
    else if (step === 3) void start()
  }
  const back = () => {
    if (step === 2) {
      setFileId(null)
      setFile(null)
    }
    setStep((s) => Math.max(0, s - 1))
  }

  const result = step === 4 && jobStatus === 'done' ? 'success' : step === 4 && jobStatus === 'failed' ? 'failure' : undefined
  const uploading = upload !== null
  const nextDisabled =
    (step === 1 && (uploading || !file)) || (step === 2 && f?.status !== 'ready') || (step === 3 && starting)

  return (
    <Stack gap="5" data-testid="import-wizard">
      <WizardStepper steps={IMPORT_STEPS} current={step} result={result} />
      <Box data-testid={`import-step-${step}`} minH="40">
        {step === 0 && (
          <Stack gap="4">
            <FormField label="گروه مقصد" required error={groupError} helper="مخاطبین فایل به این گروه افزوده می‌شوند">
              <GroupSelect aria-label="گروه مقصد" value={group} onChange={(v) => { setGroup(v); setGroupError('') }} invalid={!!groupError} />
            </FormField>
            <Stack gap="2" p="3" rounded="lg" bg="app.raised" borderWidth="1px" borderColor="app.border">
              <Text fontSize="sm">
                فایل باید ستونی با شماره‌های موبایل داشته باشد؛ ستون‌های نام، جنسیت، تاریخ تولد، برچسب‌ها و ویژگی‌های سفارشی اختیاری‌اند و در مرحله تطبیق ستون‌ها انتخاب می‌شوند.
              </Text>
              <Box>
                <DownloadAction run={downloads.importSample} label="دریافت فایل نمونه" testId="import-sample" />
              </Box>
            </Stack>
          </Stack>
        )}

        {step === 1 && (
          <Stack gap="4">
            <FormField label="فایل مخاطبین" required error={fileError} helper="قالب‌های مجاز: xlsx، csv و txt؛ حداکثر ۱٬۰۰۰٬۰۰۰ ردیف">
              <HStack gap="3" wrap="wrap">
                <Button variant="outline" onClick={() => fileInput.current?.click()} disabled={uploading}>
                  <FileIcon /> انتخاب فایل
                </Button>
                <Text fontSize="sm" color={file ? 'fg' : 'app.muted'} truncate maxW="72" dir="auto">
                  {file ? file.name : 'فایلی انتخاب نشده است'}
                </Text>
                <Input
                  ref={fileInput}
                  type="file"
                  accept={acceptFor('contacts')}
                  display="none"
                  data-testid="import-file"
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null)
                    e.target.value = '' // the same file can be chosen again
                    setFileError('')
                    setUploadError(null)
                  }}
                />
              </HStack>
            </FormField>
            {upload && (
              <HStack gap="3" data-testid="import-upload-progress">
                <Box flex="1">
                  <ProgressBar value={upload.loaded} max={upload.total || 1} label="در حال بارگذاری" showValue size="md" />
                </Box>
                <Button size="xs" variant="ghost" colorPalette="red" onClick={() => handle.current?.abort()}>
                  لغو
                </Button>
              </HStack>
            )}
            {uploadError !== null && <ErrorAlert error={uploadError} title="بارگذاری انجام نشد" />}
          </Stack>
        )}

        {step === 2 && (
          <Stack gap="4" data-testid="import-preflight">
            {!f || f.status === 'parsing' ? (
              <Stack gap="3">
                <Text fontSize="sm">فایل در حال بررسی است…</Text>
                <ProgressBar value={f?.progress ?? 0} label="بررسی فایل" showValue size="md" />
                {uploaded.isError && <ErrorAlert error={uploaded.error} />}
              </Stack>
            ) : f.status === 'failed' ? (
              <Stack gap="3">
                <ErrorAlert error={f.error || 'خطا در پردازش فایل'} title="فایل قابل استفاده نیست" />
                <Button variant="outline" alignSelf="flex-start" onClick={back}>
                  انتخاب فایل دیگر
                </Button>
              </Stack>
            ) : (
              <Stack gap="4">
                <Text fontSize="sm">
                  <bdi>{f.name}</bdi>
                </Text>
                <Grid templateColumns={{ base: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }} gap="3">
                  <Stat label="تعداد ردیف‌ها" value={f.records} />
                  <Stat label="شماره‌های معتبر" value={f.valid} tone="fg.success" />
                  <Stat label="ردیف‌های نامعتبر" value={f.invalid} tone={f.invalid ? 'fg.error' : undefined} />
                  <Stat label="تکراری" value={f.duplicates} tone={f.duplicates ? 'fg.warning' : undefined} />
                </Grid>
                {(f.errors_sample?.length ?? 0) > 0 && (
                  <Stack gap="2">
                    <HStack justify="space-between" wrap="wrap">
                      <Text fontSize="sm" fontWeight="medium">نمونه خطاها</Text>
                      <DownloadAction run={() => fileApi.downloadErrors(f.id)} label="دریافت فهرست خطاها" testId="import-errors-download" />
                    </HStack>
                    <RowErrors title="نمونه خطاها" rows={f.errors_sample!} />
                  </Stack>
                )}
              </Stack>
            )}
          </Stack>
        )}

        {step === 3 && f && (
          <Stack gap="4" data-testid="import-mapping">
            <Text fontSize="sm" color="app.muted">
              برای هر مشخصه، ستون متناظر در فایل را انتخاب کنید. ستون‌هایی که انتخاب نشوند وارد نمی‌شوند.
            </Text>
            <HStack gap="2" p="3" rounded="lg" bg="brand.subtle" fontSize="sm">
              <Text fontWeight="medium">ستون شماره موبایل:</Text>
              <Text>{(() => {
                const c = f.columns?.find((c) => c.index === f.mobile_col)
                return c ? columnLabel(c) : '—'
              })()}</Text>
            </HStack>
            <Grid templateColumns={{ base: '1fr', md: 'repeat(2, 1fr)' }} gap="4">
              {targets.map((t) => (
                <FormField key={t.key} label={t.title}>
                  <NativeSelect.Root size="sm">
                    <NativeSelect.Field
                      aria-label={t.title}
                      data-testid={`map-${t.key}`}
                      value={mapping[t.key] === null || mapping[t.key] === undefined ? '' : String(mapping[t.key])}
                      onChange={(e) => setMapping((m) => ({ ...m, [t.key]: e.target.value === '' ? null : Number(e.target.value) }))}
                    >
                      <option value="">بدون ستون</option>
                      {(f.columns ?? [])
                        .filter((c) => c.index !== f.mobile_col)
                        .map((c) => (
                          <option key={c.index} value={c.index}>{columnLabel(c)}</option>
                        ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </FormField>
              ))}
            </Grid>
            {startError !== null && <ErrorAlert error={startError} title="ورود مخاطبین آغاز نشد" />}
          </Stack>
        )}

        {step === 4 && (
          <Stack gap="4" data-testid="import-progress" data-status={jobStatus ?? 'running'}>
            {!job.data ? (
              <LoadingState />
            ) : (
              <>
                <ProgressBar value={importPercent(job.data)} label={jobStatus === 'running' ? 'در حال ورود مخاطبین' : 'ورود مخاطبین'} showValue size="md" colorPalette={jobStatus === 'failed' ? 'red' : 'brand'} />
                <Grid templateColumns={{ base: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }} gap="3">
                  <Stat label="کل ردیف‌ها" value={job.data.total} />
                  <Stat label="افزوده شد" value={job.data.added} tone="fg.success" />
                  <Stat label="تکراری (رد شد)" value={job.data.skipped} tone={job.data.skipped ? 'fg.warning' : undefined} />
                  <Stat label="نامعتبر" value={job.data.invalid} tone={job.data.invalid ? 'fg.error' : undefined} />
                </Grid>
                {jobStatus === 'done' && (
                  <Alert.Root status="success" rounded="lg" data-testid="import-done">
                    <Alert.Indicator />
                    <Alert.Description>{`ورود مخاطبین به پایان رسید: ${formatNumber(job.data.added)} مخاطب افزوده شد.`}</Alert.Description>
                  </Alert.Root>
                )}
                {jobStatus === 'failed' && <ErrorAlert error={job.data.error || 'ورود مخاطبین با خطا متوقف شد'} />}
                {jobStatus !== 'running' && (job.data.errors?.length ?? 0) > 0 && (
                  <RowErrors title="ردیف‌های واردنشده" rows={job.data.errors!.map((e) => ({ row: e.row, value: e.value, message: e.message }))} />
                )}
                {jobStatus === 'running' && (
                  <Text fontSize="sm" color="app.muted">می‌توانید این پنجره را ببندید؛ ورود مخاطبین در پس‌زمینه ادامه می‌یابد.</Text>
                )}
              </>
            )}
          </Stack>
        )}
      </Box>

      <Flex justify="space-between" gap="3" pt="2" borderTopWidth="1px" borderColor="app.border">
        {step > 0 && step < 4 ? (
          <Button variant="outline" onClick={back} disabled={uploading || starting}>
            <ArrowRightIcon /> مرحله قبل
          </Button>
        ) : (
          <span />
        )}
        {step < 4 ? (
          <Button colorPalette="brand" onClick={next} disabled={nextDisabled} loading={uploading || starting} data-testid="import-next">
            {step === 1 ? 'بارگذاری فایل' : step === 3 ? 'شروع ورود مخاطبین' : 'مرحله بعد'} <ArrowLeftIcon />
          </Button>
        ) : (
          <HStack gap="2">
            {group && String(phonebookId) !== group && (
              <Button variant="outline" onClick={() => { onClose(); navigate(`/contacts/group/${group}`) }}>
                مشاهده گروه
              </Button>
            )}
            <Button colorPalette="brand" onClick={onClose} data-testid="import-close">
              {jobStatus === 'running' ? 'بستن پنجره' : 'پایان'}
            </Button>
          </HStack>
        )}
      </Flex>
    </Stack>
  )
}
