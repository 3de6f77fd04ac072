import { lazyComponent } from '#app/utils/lazy-component.tsx'

// The download card renders on the server as plain forms; its code loads apart from the tab's first load.
export const CardDownloads = lazyComponent('card-downloads', () => import('./card-downloads.tsx').then((module) => module.CardDownloads))
