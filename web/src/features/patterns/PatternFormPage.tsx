import { Button, Checkbox, Grid, HStack, IconButton, Input, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { FormField, FormStack } from '../../components/FormField'
import { MessageEditor } from '../../components/MessageEditor'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, LoadingState } from '../../components/States'
import { api } from '../../lib/api'
import { ApiError, errorText } from '../../lib/apiError'
import { toaster } from '../../lib/toaster'
import { usePattern, useSavePattern, type PatternInput, type PatternKind, type Variable } from './api'
import { checkDraft, DEFAULT_LENGTH, KIND_LABELS, placeholders } from './model'
import { PatternPreview } from './PatternPreview'

const EMPTY: PatternInput = { title: '', description: '', text: '', variables: [], kind: 'otp', shared: false }

/** /pattern/create and /pattern/update/:id: the pattern editor with live rules, variable chips and preview. */
export default function PatternFormPage() {
  const id = Number(useParams().id ?? 0)
  const existing = usePattern(id)
  if (id > 0 && existing.isPending) return <LoadingState />
  if (id > 0 && !existing.data) return <ErrorState onRetry={() => void existing.refetch()} />
  const p = existing.data
  const initial: PatternInput = p
    ? { title: p.title, description: p.description, text: p.text, variables: p.variables, kind: p.kind, shared: p.shared }
    : EMPTY
  return <PatternForm id={id} initial={initial} approvedEdit={!!p?.sendable} />
}

function useBrand() {
  return useQuery({ queryKey: ['patterns', 'brand'], queryFn: ({ signal }) => api.get<{ brand: string }>('/patterns/brand', undefined, signal) })
}

function PatternForm({ id, initial, approvedEdit }: { id: number; initial: PatternInput; approvedEdit: boolean }) {
  const navigate = useNavigate()
  const [form, setForm] = useState<PatternInput>(initial)
  const [touched, setTouched] = useState(false)
  const save = useSavePattern(id || undefined)
  const brand = useBrand().data?.brand ?? ''
  const set = <K extends keyof PatternInput>(k: K, v: PatternInput[K]) => setForm((f) => ({ ...f, [k]: v }))

  // A %name% typed in the text declares its variable (string, default length).
  const used = useMemo(() => placeholders(form.text), [form.text])
  useEffect(() => {
    const missing = used.filter((n) => /^[A-Za-z][A-Za-z0-9_]*$/.test(n) && !form.variables.some((v) => v.name === n))
    if (missing.length) set('variables', [...form.variables, ...missing.map((name) => ({ name, type: 'string' as const, length: DEFAULT_LENGTH }))])
  }, [used]) // eslint-disable-line react-hooks/exhaustive-deps

  const local = checkDraft(form, brand)
  const server = save.error instanceof ApiError ? save.error : undefined
  const err = (f: string) => (touched ? local[f]?.join('؛ ') : undefined) || server?.errors[f]?.join('؛ ')
  const setVar = (i: number, v: Partial<Variable>) => set('variables', form.variables.map((x, j) => (j === i ? { ...x, ...v } : x)))

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (Object.keys(local).length) return
    save.mutate(form, {
      onSuccess: (p) => {
        toaster.create({ type: 'success', title: approvedEdit ? 'نسخه تازه برای بررسی فرستاده شد؛ نسخه تاییدشده همچنان ارسال می‌شود' : 'الگو برای بررسی فرستاده شد' })
        navigate(`/pattern/${p.id}`)
      },
    })
  }

  return (
    <SectionCard title={id ? 'ویرایش الگو' : 'ایجاد الگو'}
      description={brand ? `نام برند شما («${brand}») باید در متن بیاید؛ پیوندها فقط با https:// و بیرون از متغیرها.` : undefined}>
      <Grid templateColumns={{ base: '1fr', lg: '3fr 2fr' }} gap="6">
        <FormStack gap="4" onSubmit={submit} noValidate data-testid="pattern-form">
          <FormField label="عنوان" required error={err('title')}>
            <Input value={form.title} onChange={(e) => set('title', e.target.value)} maxLength={100} data-testid="pattern-title" />
          </FormField>
          <FormField label="توضیحات" error={err('description')}>
            <Input value={form.description} onChange={(e) => set('description', e.target.value)} maxLength={500} />
          </FormField>
          <FormField label="نوع الگو" error={err('kind')}
            helper={approvedEdit ? 'تغییر نوع الگو هم مانند تغییر متن پس از بررسی پشتیبانی اعمال می‌شود؛ تا آن زمان نسخه تأییدشده با نوع فعلی‌اش ارسال می‌شود.' : undefined}>
            <NativeSelect.Root>
              <NativeSelect.Field value={form.kind} onChange={(e) => set('kind', e.target.value as PatternKind)} data-testid="pattern-kind">
                {Object.entries(KIND_LABELS).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <MessageEditor label="متن الگو" value={form.text} onChange={(v) => set('text', v)} showCancel11={false}
            keywords={form.variables.filter((v) => v.name).map((v) => ({ keyword: v.name, col: '' }))} formatTag={(k) => `%${k}%`}
            placeholder="مثلا: فروشگاه شما — کد ورود: %code%" invalid={!!err('text')} errorText={err('text')} />
          <VariablesEditor vars={form.variables} onChange={(v) => set('variables', v)} setVar={setVar} error={err('variables')} />
          <Checkbox.Root checked={form.shared} onCheckedChange={(e) => set('shared', !!e.checked)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>اشتراکی (همکاران حساب هم این الگو را می‌بینند و ارسال می‌کنند)</Checkbox.Label>
          </Checkbox.Root>
          {server && !Object.keys(server.errors).length && <Text color="fg.error" fontSize="sm">{errorText(server)}</Text>}
          <HStack gap="2">
            <Button type="submit" colorPalette="brand" loading={save.isPending} data-testid="pattern-save">
              {id ? 'ثبت نسخه تازه' : 'ثبت و ارسال برای بررسی'}
            </Button>
            <Button variant="outline" onClick={() => navigate(-1)}>انصراف</Button>
          </HStack>
        </FormStack>
        <PatternPreview text={form.text} variables={form.variables} />
      </Grid>
    </SectionCard>
  )
}

function VariablesEditor({ vars, onChange, setVar, error }: {
  vars: Variable[]; onChange: (v: Variable[]) => void; setVar: (i: number, v: Partial<Variable>) => void; error?: string
}) {
  return (
    <FormField label="متغیرها" error={error} helper="نام لاتین بدون فاصله؛ نوع رشته یا عدد؛ طول پیش‌فرض ۲۰">
      <Stack gap="2" w="full">
        {vars.map((v, i) => (
          <HStack key={i} gap="2" wrap={{ base: 'wrap', md: 'nowrap' }}>
            <Input size="sm" dir="ltr" value={v.name} aria-label="نام متغیر" placeholder="code" flex="2" minW="28"
              onChange={(e) => setVar(i, { name: e.target.value.trim() })} />
            <NativeSelect.Root size="sm" flex="1" minW="24">
              <NativeSelect.Field value={v.type} aria-label="نوع متغیر" onChange={(e) => setVar(i, { type: e.target.value as Variable['type'] })}>
                <option value="string">رشته</option>
                <option value="integer">عدد</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Input size="sm" type="number" value={v.length} aria-label="طول متغیر" flex="1" minW="16" min={1} max={100}
              onChange={(e) => setVar(i, { length: Number(e.target.value) || 0 })} />
            <IconButton size="sm" variant="ghost" colorPalette="red" aria-label={`حذف متغیر ${v.name}`}
              onClick={() => onChange(vars.filter((_, j) => j !== i))}>×</IconButton>
          </HStack>
        ))}
        <Button size="xs" variant="outline" alignSelf="flex-start"
          onClick={() => onChange([...vars, { name: '', type: 'string', length: DEFAULT_LENGTH }])}>افزودن متغیر</Button>
      </Stack>
    </FormField>
  )
}
