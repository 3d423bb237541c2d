import { TodoStore } from './store';

const store = new TodoStore();
store.add('Write the tests');
store.add('Ship it');
store.toggle(1);

for (const todo of store.list()) {
  console.log(`${todo.done ? '[x]' : '[ ]'} ${todo.title}`);
}
