import { lazyComponent } from '#app/utils/lazy-component.tsx'

// The SMART Health Link cards render on the server as plain forms; their code (and the forms' checks) load apart from
// the tab's first load.
export const HealthLinks = lazyComponent('health-links', () => import('./health-links.tsx').then((module) => module.HealthLinks))
