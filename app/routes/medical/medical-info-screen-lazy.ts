import { lazyComponent } from '#app/utils/lazy-component.tsx'

/** The ten sections' forms load after the page: until their code arrives they work as plain HTML forms and links. */
export const MedicalInfoScreen = lazyComponent('medical-info', () =>
	import('./medical-info-screen.tsx').then((module) => module.MedicalInfoScreen),
)
