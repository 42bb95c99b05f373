/** Temporary: the auth pages still import PasswordInput from here; it lives in components/. */
export * from '../../components/PasswordInput'
