import { Component, type ErrorInfo, type ReactNode } from 'react'
import { Button, Center, Code, Stack, Text } from '@chakra-ui/react'
import { AlertIcon } from '../../components/outlineIcons'

interface Props {
  children: ReactNode
  /** Called by «بازگشت»: goes back one step in history. */
  onBack: () => void
}

interface State {
  error: Error | null
}

/** Render errors show a description and «بازگشت»; the parent keys it by path so it resets on navigation. */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('render error', error, info.componentStack)
  }

  render() {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <Center py="16" px="4">
        <Stack align="center" gap="4" maxW="md" textAlign="center">
          <Center boxSize="14" rounded="full" bg="red.subtle" color="red.fg">
            <AlertIcon boxSize="7" />
          </Center>
          <Text fontSize="lg" fontWeight="bold">
            در نمایش این صفحه خطایی رخ داد
          </Text>
          <Text color="app.muted">لطفا به صفحه قبل بازگردید و دوباره تلاش کنید.</Text>
          {error.message && (
            <Code dir="ltr" maxW="full" whiteSpace="pre-wrap" p="2" fontSize="xs">
              {error.message}
            </Code>
          )}
          <Button colorPalette="brand" onClick={this.props.onBack}>
            بازگشت
          </Button>
        </Stack>
      </Center>
    )
  }
}
