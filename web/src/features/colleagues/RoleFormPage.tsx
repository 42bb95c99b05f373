import { Button, Card, Checkbox, Heading, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { useNavigate, useParams } from 'react-router'
import { ErrorState, LoadingState } from '../../components/States'
import { usePermissionList, useRole, useSaveRole } from './api'
import { groupPermissions, MESSAGES } from './model'
import { ErrorAlert, fieldError, FormField, FormStack, generalError, toastOk } from './ui'

/** /colleagues/create-access and /colleagues/update-access/:id: a role's name and permissions, grouped by feature. */
export default function RoleFormPage() {
  const { id } = useParams()
  const role = useRole(id)
  const perms = usePermissionList()
  if ((id && role.isPending) || perms.isPending) return <LoadingState />
  // A failed refresh keeps the form and what was typed in it; only data never loaded shows the error.
  if ((id && !role.data) || !perms.data) {
    return <ErrorState description={undefined} onRetry={() => { void role.refetch(); void perms.refetch() }} />
  }
  return <RoleForm key={id ?? 'new'} id={id ? Number(id) : undefined} initialName={role.data?.name ?? ''} initialPerms={role.data?.permissions ?? []} />
}

function RoleForm({ id, initialName, initialPerms }: { id?: number; initialName: string; initialPerms: string[] }) {
  const navigate = useNavigate()
  const perms = usePermissionList()
  const save = useSaveRole()
  const [name, setName] = useState(initialName)
  const [chosen, setChosen] = useState<string[]>(initialPerms)
  const [touched, setTouched] = useState(false)
  const groups = groupPermissions(perms.data ?? [])
  const nameError = name.trim() ? null : MESSAGES.roleName
  const permError = chosen.length ? null : MESSAGES.noPermissions
  const toggle = (key: string, on: boolean) => setChosen((c) => (on ? [...new Set([...c, key])] : c.filter((k) => k !== key)))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (nameError || permError) return
    save.mutate({ id, name: name.trim(), permissions: chosen }, {
      onSuccess: () => {
        toastOk(id ? 'نقش ذخیره شد' : 'نقش ساخته شد')
        navigate('/colleagues?tab=1')
      },
    })
  }

  return (
    <Card.Root variant="outline" rounded="xl">
      <Card.Body>
        <FormStack gap="5" onSubmit={submit} noValidate data-testid="role-form">
          <Heading size="md">{id ? 'ویرایش نقش دسترسی' : 'ایجاد نقش دسترسی'}</Heading>
          <FormField label="نام نقش" required error={(touched && nameError) || fieldError(save.error, 'name')}>
            <Input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} data-testid="role-name" />
          </FormField>
          <Stack gap="3">
            <Text fontWeight="medium">دسترسی‌ها</Text>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
              {groups.map((g) => (
                <Card.Root key={g.key} variant="subtle" rounded="lg">
                  <Card.Body gap="2" p="4">
                    <Text fontWeight="semibold" fontSize="sm">{g.title}</Text>
                    {g.items.map((p) => (
                      <Checkbox.Root key={p.key} checked={chosen.includes(p.key)} onCheckedChange={(e) => toggle(p.key, e.checked === true)}
                        colorPalette="brand" size="sm" data-testid={`perm-${p.key}`}>
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                        <Checkbox.Label>{p.title}</Checkbox.Label>
                      </Checkbox.Root>
                    ))}
                  </Card.Body>
                </Card.Root>
              ))}
            </SimpleGrid>
            {((touched && permError) || fieldError(save.error, 'permissions')) && (
              <Text color="fg.error" fontSize="sm">{(touched && permError) || fieldError(save.error, 'permissions')}</Text>
            )}
          </Stack>
          {generalError(save.error, ['name', 'permissions']) && <ErrorAlert error={save.error} />}
          <HStack justify="flex-end" gap="2">
            <Button variant="outline" onClick={() => navigate('/colleagues?tab=1')}>انصراف</Button>
            <Button type="submit" colorPalette="brand" loading={save.isPending} data-testid="role-save">
              {id ? 'ذخیره' : 'ساخت نقش'}
            </Button>
          </HStack>
        </FormStack>
      </Card.Body>
    </Card.Root>
  )
}
