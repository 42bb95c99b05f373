import { IconButton } from '@chakra-ui/react'
import { MoonIcon, SunIcon } from './outlineIcons'
import { useColorMode } from '../lib/theme'

export function ThemeToggle() {
  const { mode, toggle } = useColorMode()
  const label = mode === 'dark' ? 'حالت روشن' : 'حالت تیره'
  return (
    <IconButton aria-label={label} title={label} variant="ghost" rounded="full" onClick={toggle} data-testid="theme-toggle">
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </IconButton>
  )
}
