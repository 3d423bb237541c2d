import { createTodo, toggle, type Todo } from './todo';

export class TodoStore {
  private todos: Todo[] = [];
  private nextId = 1;

  add(title: string): Todo {
    const todo = createTodo(this.nextId++, title);
    this.todos.push(todo);
    return todo;
  }

  toggle(id: number): void {
    this.todos = this.todos.map((t) => (t.id === id ? toggle(t) : t));
  }

  list(): Todo[] {
    return [...this.todos];
  }
}
