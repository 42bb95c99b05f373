import { createToaster } from '@chakra-ui/react'

/** The app-wide toaster; rendered once by app/Toaster.tsx. */
export const toaster = createToaster({ placement: 'top', pauseOnPageIdle: true, max: 4 })
