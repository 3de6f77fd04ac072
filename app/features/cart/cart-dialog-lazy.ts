import { lazyComponent } from '#app/utils/lazy-component.tsx'

/** The cart and checkout over a page (?cart=open): its code loads when a page opens it, or when the Cart button is pointed at. */
export const CartDialog = lazyComponent('cart-dialog', () => import('./cart-dialog.tsx').then((module) => module.CartDialog))
