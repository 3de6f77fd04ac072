import { lazyComponent } from '#app/utils/lazy-component.tsx'

/** The PIN form's checks (conform, zod) load after the page: until then it posts as a plain form. */
export const PinForm = lazyComponent('pin-form', () => import('./pin-form.tsx').then((module) => module.PinForm))
