import { render } from 'preact';
import { App } from './app';
import './styles/base.css';
import './styles/views.css';

const root = document.getElementById('app');
if (root) render(<App />, root);
