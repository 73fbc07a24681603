import { createRoot } from 'react-dom/client';
import routes from '../routes';

const Home = routes.routes.home.Component;
createRoot(document.getElementById('root')!).render(<Home />);
