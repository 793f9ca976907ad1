// An async boundary, so shared singletons are negotiated before any of them is used. The chunk's
// name keeps the standalone shell's code out of the exposed pages' chunks (webpack.config.base.ts).
import(/* webpackChunkName: "standalone" */ './bootstrap');
