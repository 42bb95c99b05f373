import { Alert, Button, Checkbox, HStack, Input, Stack, Switch, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { FormField } from '../../components/FormField'
import { Modal } from '../../components/Overlays'
import { SecretOnce } from '../../components/SecretOnce'
import { ServerMessage } from '../../components/ServerMessage'
import { isApiError } from '../../lib/api'
import { useCreateEndpoint, useUpdateEndpoint, type CreatedEndpoint, type Endpoint } from './api'
import { eventTitle } from './model'

const fieldError = (err: unknown, f: string) => (isApiError(err) ? err.fieldError(f) : undefined)

interface Props {
  open: boolean
  onClose: () => void
  /** The endpoint to edit; none adds one. */
  editing: Endpoint | null
  events: string[]
}

/** Adds or edits an endpoint; a new one's signing secret is then shown once. */
export function EndpointModal({ open, onClose, editing, events }: Props) {
  const [created, setCreated] = useState<CreatedEndpoint | null>(null)
  const close = () => {
    setCreated(null)
    onClose()
  }
  const title = created ? 'وب‌هوک ساخته شد' : editing ? 'ویرایش وب‌هوک' : 'وب‌هوک جدید'
  return (
    <Modal open={open} onClose={close} title={title} size="lg" closeOnInteractOutside={false}>
      {created ? (
        <SecretOnce secret={created.secret} noun="رمز امضا" onDone={close} testId="webhook" />
      ) : (
        <EndpointForm key={editing?.id ?? 'new'} editing={editing} events={events} onCreated={setCreated} onSaved={close} onCancel={close} />
      )}
    </Modal>
  )
}

interface FormProps {
  editing: Endpoint | null
  events: string[]
  onCreated: (e: CreatedEndpoint) => void
  onSaved: () => void
  onCancel: () => void
}

function EndpointForm({ editing, events, onCreated, onSaved, onCancel }: FormProps) {
  const create = useCreateEndpoint()
  const update = useUpdateEndpoint()
  const save = editing ? update : create
  const [url, setURL] = useState(editing?.url ?? '')
  const [chosen, setChosen] = useState<string[]>(editing?.events ?? events)
  const [enabled, setEnabled] = useState(editing?.enabled ?? true)
  const [description, setDescription] = useState(editing?.description ?? '')
  const toggle = (k: string, on: boolean) => setChosen((c) => (on ? [...new Set([...c, k])] : c.filter((x) => x !== k)))
  const submit = () => {
    const input = { url: url.trim(), events: chosen, enabled, description: description.trim() }
    if (editing) update.mutate({ ...input, id: editing.id }, { onSuccess: onSaved })
    else create.mutate(input, { onSuccess: onCreated })
  }
  const other = save.error && !['url', 'events', 'description'].some((f) => fieldError(save.error, f))
  return (
    <Stack gap="4" data-testid="webhook-form">
      <FormField label="نشانی (URL)" required helper="فقط http یا https؛ نشانی‌های شبکهٔ داخلی پذیرفته نمی‌شوند" error={fieldError(save.error, 'url')}>
        <Input value={url} dir="ltr" placeholder="https://example.com/chapar/webhook" onChange={(e) => setURL(e.target.value)} data-testid="webhook-url" />
      </FormField>
      <Stack gap="2">
        <Text fontWeight="medium">رویدادها</Text>
        {events.map((ev) => (
          <Checkbox.Root key={ev} checked={chosen.includes(ev)} onCheckedChange={(e) => toggle(ev, e.checked === true)} colorPalette="brand" size="sm"
            data-testid={`webhook-event-${ev}`}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>
              {eventTitle(ev)} <bdi dir="ltr">({ev})</bdi>
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
        {fieldError(save.error, 'events') && <Text color="fg.error" fontSize="sm">{fieldError(save.error, 'events')}</Text>}
      </Stack>
      <FormField label="توضیح (اختیاری)" error={fieldError(save.error, 'description')}>
        <Input value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
      </FormField>
      <Switch.Root checked={enabled} onCheckedChange={(e) => setEnabled(e.checked)} colorPalette="brand">
        <Switch.HiddenInput />
        <Switch.Control />
        <Switch.Label>فعال</Switch.Label>
      </Switch.Root>
      {other ? (
        <Alert.Root status="error" rounded="lg">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>
              <ServerMessage error={save.error} />
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
      <HStack justify="flex-end" gap="2">
        <Button variant="outline" onClick={onCancel}>انصراف</Button>
        <Button colorPalette="brand" loading={save.isPending} disabled={!url.trim() || !chosen.length} onClick={submit} data-testid="webhook-save">
          ذخیره
        </Button>
      </HStack>
    </Stack>
  )
}
