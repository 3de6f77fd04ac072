// What every page shows around its content: each piece is whole as server HTML (the banner's dismiss and the consent
// notice's close are forms, toasts fade by CSS), so the root loads their code after the page, in one chunk.
export { ConsentNotice } from './features/consent-notice/consent-notice.tsx'
export { CyberBanner } from './ui/cyber-banner.tsx'
export { Toaster } from './ui/toaster.tsx'
