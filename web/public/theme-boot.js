// Apply the saved theme before the first paint (spec: "true" under `dark` means dark).
// A file, not an inline script, so that the Content-Security-Policy can forbid inline scripts.
try {
  if (localStorage.getItem('dark') === 'true') {
    document.documentElement.classList.add('dark')
    document.documentElement.style.colorScheme = 'dark'
  }
} catch (e) {}
