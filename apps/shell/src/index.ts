// The theme is applied before anything renders (no flash of the wrong scheme), the CSS is part of the
// entry (a <link> in index.html), and the app itself starts behind an async boundary so Module
// Federation negotiates the shared singletons first (docs/behaviour.md#module-federation-rules).
import './styles.css';
import { requestConfigEarly } from './app/early-config';
import { startTheme } from './theme/theme';

startTheme();
requestConfigEarly();
import(/* webpackChunkName: "bootstrap" */ './bootstrap');
