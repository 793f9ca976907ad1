import { renderStandalone } from 'shared/browser/standalone-shell';
import __Page__ from './exposed/__page__';

renderStandalone('__Name__', [{ path: '__path__', example: '__path__', element: <__Page__ /> }]);
