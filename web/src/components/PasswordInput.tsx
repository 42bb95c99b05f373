import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react'
import { useState } from 'react'
import { EyeIcon, EyeOffIcon } from './outlineIcons'

/** A password input with a show/hide button; typed left-to-right. */
export function PasswordInput(props: InputProps) {
  const [visible, setVisible] = useState(false)
  return (
    <InputGroup
      endElement={
        <IconButton
          aria-label={visible ? 'پنهان کردن رمز' : 'نمایش رمز'}
          variant="ghost"
          size="xs"
          me="-1"
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </IconButton>
      }
    >
      <Input type={visible ? "text" : "password"} autoComplete="current-password" {...props} />
    </InputGroup>
  )
}
