import { Field, chakra } from '@chakra-ui/react'
import type { ReactNode } from 'react'

interface Props {
  label: ReactNode
  error?: string | null
  helper?: ReactNode
  required?: boolean
  children: ReactNode
}

/** Label, control, helper and the (client or server) error under it. */
export function FormField({ label, error, helper, required, children }: Props) {
  return (
    <Field.Root invalid={!!error} required={required}>
      <Field.Label fontWeight="medium">
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : helper ? <Field.HelperText>{helper}</Field.HelperText> : null}
    </Field.Root>
  )
}

/** A <form> laid out as a vertical stack: <FormStack gap="4" onSubmit={…} noValidate>. */
export const FormStack = chakra('form', { base: { display: 'flex', flexDirection: 'column' } })
