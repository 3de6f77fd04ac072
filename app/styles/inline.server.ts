import css from './app.css?inline'

/** The whole stylesheet as text, for the head of every page (see page-styles.tsx). */
export const appCss = css
