package io.sparkscope.core.redact;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A copy of a record with some components replaced, through its canonical constructor. Used only when a record holds
 * a secret (rare), and written against component names rather than constructor positions, so components added to the
 * model later are copied along without this code changing.
 */
final class RecordCopy {
    private record Shape(RecordComponent[] components, Method[] accessors, Constructor<?> constructor) {
    }

    private static final Map<Class<?>, Shape> SHAPES = new ConcurrentHashMap<>();

    private RecordCopy() {
    }

    /** @param replacements component name, new value, name, value, … */
    @SuppressWarnings("unchecked")
    static <R extends Record> R with(R record, Object... replacements) {
        Shape shape = SHAPES.computeIfAbsent(record.getClass(), RecordCopy::shape);
        Object[] args = new Object[shape.components.length];
        try {
            for (int i = 0; i < args.length; i++) {
                args[i] = shape.accessors[i].invoke(record);
            }
            for (int r = 0; r < replacements.length; r += 2) {
                String name = (String) replacements[r];
                int i = indexOf(shape, name);
                if (i < 0) {
                    throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no component " + name);
                }
                args[i] = replacements[r + 1];
            }
            return (R) shape.constructor.newInstance(args);
        } catch (IllegalAccessException | InstantiationException e) {
            throw new IllegalStateException("cannot copy " + record.getClass().getName(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot copy " + record.getClass().getName(), e.getCause());
        }
    }

    private static int indexOf(Shape shape, String name) {
        for (int i = 0; i < shape.components.length; i++) {
            if (shape.components[i].getName().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static Shape shape(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Method[] accessors = new Method[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            accessors[i] = components[i].getAccessor();
            accessors[i].setAccessible(true);
        }
        try {
            Constructor<?> c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            return new Shape(components, accessors, c);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(type.getName() + " has no canonical constructor", e);
        }
    }
}
