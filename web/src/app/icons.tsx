/** Temporary: the auth pages still import the icons from here; they live in components/outlineIcons. */
export * from '../components/outlineIcons'
