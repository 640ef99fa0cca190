/** The axe rule tags every accessibility check runs: WCAG 2.2 levels A and AA (with 2.0 and 2.1's). */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
