import { renderStandalone } from 'shared/standalone-shell';
import HomePage from './exposed/home-page';

renderStandalone('Content', [{ path: '/', example: '/', element: <HomePage /> }]);
