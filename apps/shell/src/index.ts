// Async boundary: shared singletons are negotiated before any app code runs (MF pitfall 5).
import('./bootstrap');
