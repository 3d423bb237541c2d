export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

export function createTodo(id: number, title: string): Todo {
  return { id, title: title.trim(), done: false };
}

export function toggle(todo: Todo): Todo {
  return { ...todo, done: !todo.done };
}
