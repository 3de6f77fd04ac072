import { lazyComponent } from '#app/utils/lazy-component.tsx'

// The reading form's checks and the review's code load after the page: until then they are plain HTML forms.
export const ImportForm = lazyComponent('import-form', () => import('./import-form.tsx').then((module) => module.ImportForm))
export const ImportReview = lazyComponent('import-review', () => import('./import-review.tsx').then((module) => module.ImportReview))
