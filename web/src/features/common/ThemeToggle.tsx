/** Temporary: the auth pages still import ThemeToggle from here; it lives in components/. */
export * from '../../components/ThemeToggle'
