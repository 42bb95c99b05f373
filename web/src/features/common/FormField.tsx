/** Temporary: the auth pages still import FormField from here; it lives in components/. */
export * from '../../components/FormField'
