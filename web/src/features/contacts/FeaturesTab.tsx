import { Badge, Button, Checkbox, HStack, Input, Stack, Switch, Text, Wrap } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Modal } from '../../components/Overlays'
import { Select } from '../../components/Select'
import { PlusIcon } from '../../components/outlineIcons'
import { isApiError } from '../../lib/api'
import { formatNumber } from '../../lib/format'
import { useUrlListState } from '../../lib/urlState'
import { FormField, FormStack } from '../../components/FormField'
import { useDeleteFeatures, useFeatures, useSaveFeature } from './api'
import {
  EMPTY_FEATURE, FEATURE_TYPE_LABELS, FEATURE_TYPE_OPTIONS, featureBody, featureFormErrors, FLOW_LABELS, FLOWS,
  type Feature, type FeatureFlow, type FeatureForm, type FeatureType,
} from './model'
import {
  dateCell, DeleteDialog, emptyText, ErrorAlert, faText, RowActions, selectColumn, SelectionBar, tableState, toastError, toastSuccess,
  Toolbar, useDeleteFlow, useSelection,
} from './ui'

/** Custom features («ویژگی‌های سفارشی»): Persian and Latin titles, type, enabled, flows. */
export function FeaturesTab() {
  const list = useUrlListState()
  const query = { page: list.page, limit: list.limit }
  const features = useFeatures(query)
  const selection = useSelection<number>(JSON.stringify(query))
  const save = useSaveFeature()
  const remove = useDeleteFeatures()
  const [editing, setEditing] = useState<Feature | 'new' | null>(null)
  const deleting = useDeleteFlow<number>(remove.mutateAsync, (n) => `${formatNumber(n)} ویژگی حذف شد`, selection.clear)
  const rows = features.data?.rows

  const toggle = (f: Feature, enabled: boolean) =>
    save.mutate(featureBody({ ...f, enabled }), {
      onSuccess: () => toastSuccess(enabled ? 'ویژگی فعال شد' : 'ویژگی غیرفعال شد'),
      onError: toastError,
    })

  const columns: DataTableColumn<Feature>[] = [
    selectColumn(selection, (r) => r.id, (r) => r.title_fa),
    { key: 'title_fa', title: 'عنوان فارسی', render: (r) => <Text fontWeight="medium">{faText(r.title_fa)}</Text> },
    { key: 'title_en', title: 'عنوان لاتین', render: (r) => <bdi dir="ltr">{r.title_en}</bdi> },
    { key: 'type', title: 'نوع', render: (r) => FEATURE_TYPE_LABELS[r.type] ?? r.type },
    {
      key: 'flows',
      title: 'کاربردها',
      hideOnMobile: true,
      render: (r) => (
        <Wrap gap="1">
          {r.flows.map((f) => (
            <Badge key={f} size="sm" variant="outline">
              {FLOW_LABELS[f] ?? f}
            </Badge>
          ))}
        </Wrap>
      ),
    },
    {
      key: 'enabled',
      title: 'وضعیت',
      render: (r) => (
        <Switch.Root checked={r.enabled} onCheckedChange={(e) => toggle(r, e.checked)} colorPalette="brand" size="sm" disabled={save.isPending} data-testid="feature-enabled">
          <Switch.HiddenInput aria-label={`فعال بودن ${r.title_fa}`} />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label fontSize="sm">{r.enabled ? 'فعال' : 'غیرفعال'}</Switch.Label>
        </Switch.Root>
      ),
    },
    { key: 'created_at', title: 'تاریخ ایجاد', render: (r) => dateCell(r.created_at), hideOnMobile: true },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => <RowActions onEdit={() => setEditing(r)} onDelete={() => deleting.ask([r.id])} />,
    },
  ]

  return (
    <Stack gap="3">
      <DataTable
        caption="ویژگی‌های سفارشی"
        columns={columns}
        {...tableState(features)}
        rowKey={(r) => r.id}
        emptyText={emptyText(false)}
        toolbar={
          <Toolbar>
            {(rows?.length ?? 0) > 0 && (
              <SelectionBar selection={selection} pageKeys={(rows ?? []).map((r) => r.id)} onDelete={() => deleting.ask([...selection.selected])} />
            )}
            <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')} data-testid="feature-add">
              <PlusIcon /> ویژگی جدید
            </Button>
          </Toolbar>
        }
      />
      <Modal
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing && editing !== 'new' ? 'ویرایش ویژگی' : 'ویژگی جدید'}
        closeOnInteractOutside={false}
      >
        <FeatureFormBody feature={editing && editing !== 'new' ? editing : undefined} onDone={() => setEditing(null)} />
      </Modal>
      <DeleteDialog flow={deleting} title="حذف ویژگی">
        {(ids) =>
          ids.length > 1
            ? `${formatNumber(ids.length)} ویژگی انتخاب‌شده و مقدارهای آن‌ها در مخاطبین حذف شوند؟`
            : 'این ویژگی و مقدارهای آن در مخاطبین حذف شوند؟'}
      </DeleteDialog>
    </Stack>
  )
}

function FeatureFormBody({ feature, onDone }: { feature?: Feature; onDone: () => void }) {
  const [form, setForm] = useState<FeatureForm>(() =>
    feature ? { id: feature.id, title_fa: feature.title_fa, title_en: feature.title_en, type: feature.type, enabled: feature.enabled, flows: feature.flows } : EMPTY_FEATURE,
  )
  const [showErrors, setShowErrors] = useState(false)
  const save = useSaveFeature()
  const errors = showErrors ? featureFormErrors(form) : {}
  const serverError = (f: string) => (isApiError(save.error) ? save.error.fieldError(f) : undefined)
  const patch = (p: Partial<FeatureForm>) => setForm((f) => ({ ...f, ...p }))
  const toggleFlow = (flow: FeatureFlow, on: boolean) =>
    patch({ flows: on ? FLOWS.filter((f) => f === flow || form.flows.includes(f)) : form.flows.filter((f) => f !== flow) })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (Object.keys(featureFormErrors(form)).length) return setShowErrors(true)
    save.mutate(featureBody(form), {
      onSuccess: () => {
        toastSuccess(feature ? 'ویژگی ذخیره شد' : 'ویژگی ساخته شد')
        onDone()
      },
    })
  }

  return (
    <FormStack gap="4" onSubmit={submit} noValidate pb="2" data-testid="feature-form">
      <FormField label="عنوان فارسی" required error={errors.title_fa ?? serverError('title_fa')}>
        <Input value={form.title_fa} onChange={(e) => patch({ title_fa: e.target.value })} onBlur={(e) => patch({ title_fa: e.target.value.trim() })} data-testid="feature-title-fa" />
      </FormField>
      <FormField
        label="عنوان لاتین"
        required
        error={errors.title_en ?? serverError('title_en')}
        helper="فقط حروف لاتین، عدد و خط تیره؛ در فایل ورود و متن پیامک با این نام شناخته می‌شود"
      >
        <Input value={form.title_en} dir="ltr" textAlign="end" onChange={(e) => patch({ title_en: e.target.value })} onBlur={(e) => patch({ title_en: e.target.value.trim() })} data-testid="feature-title-en" />
      </FormField>
      <FormField label="نوع" required error={serverError('type')} helper={feature ? 'پس از ثبت مقدار برای مخاطبین، نوع قابل تغییر نیست' : undefined}>
        <Select<FeatureType> aria-label="نوع" options={FEATURE_TYPE_OPTIONS} value={form.type} onChange={(v) => v && patch({ type: v })} />
      </FormField>
      <FormField label="کاربردها" required error={errors.flows ?? serverError('flows')}>
        <HStack gap="4" wrap="wrap">
          {FLOWS.map((flow) => (
            <Checkbox.Root key={flow} checked={form.flows.includes(flow)} onCheckedChange={(e) => toggleFlow(flow, e.checked === true)} colorPalette="brand" size="sm">
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{FLOW_LABELS[flow]}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </HStack>
      </FormField>
      <Switch.Root checked={form.enabled} onCheckedChange={(e) => patch({ enabled: e.checked })} colorPalette="brand">
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label>فعال</Switch.Label>
      </Switch.Root>
      {save.isError && !['title_fa', 'title_en', 'type', 'flows'].some(serverError) && <ErrorAlert error={save.error} />}
      <Button type="submit" colorPalette="brand" loading={save.isPending} alignSelf="flex-end" data-testid="feature-save">
        {feature ? 'ذخیره' : 'ساخت ویژگی'}
      </Button>
    </FormStack>
  )
}
