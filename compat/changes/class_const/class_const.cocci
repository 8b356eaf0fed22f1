// SPDX-License-Identifier: GPL-2.0-only
/// Class callbacks with the const pointers of 6.2 and 6.4, in a spelling that builds on every
/// kernel: the struct device * of a class's devnode() and dev_uevent(), and the struct class *
/// and struct class_attribute * of a class attribute's show() and store(), get the types
/// cdev_compat_devnode_device, cdev_compat_uevent_device, cdev_compat_attr_class and
/// cdev_compat_class_attribute (const where the kernel's callbacks have it); a static struct
/// class loses .owner (6.4 removed it) and has the type cdev_compat_static_class (const where
/// class_register() takes a const class). Both the old and the 6.4 spelling are rewritten.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch

@devnode_init@
identifier cls, fn;
@@
struct class cls = { ..., .devnode = fn, ... };

@devnode_assign@
struct class *c;
identifier fn;
@@
c->devnode = fn;

@@
identifier fn = { devnode_init.fn, devnode_assign.fn };
identifier d, m;
type T;
typedef cdev_compat_devnode_device;
@@
T fn(
- const struct device *d
+ cdev_compat_devnode_device *d
  , umode_t *m) { ... }

@@
identifier fn = { devnode_init.fn, devnode_assign.fn };
identifier d, m;
type T;
typedef cdev_compat_devnode_device;
@@
T fn(
- struct device *d
+ cdev_compat_devnode_device *d
  , umode_t *m) { ... }

@uevent_init@
identifier cls, fn;
@@
struct class cls = { ..., .dev_uevent = fn, ... };

@uevent_assign@
struct class *c;
identifier fn;
@@
c->dev_uevent = fn;

@@
identifier fn = { uevent_init.fn, uevent_assign.fn };
identifier d, e;
typedef cdev_compat_uevent_device;
@@
int fn(
- const struct device *d
+ cdev_compat_uevent_device *d
  , struct kobj_uevent_env *e) { ... }

@@
identifier fn = { uevent_init.fn, uevent_assign.fn };
identifier d, e;
typedef cdev_compat_uevent_device;
@@
int fn(
- struct device *d
+ cdev_compat_uevent_device *d
  , struct kobj_uevent_env *e) { ... }

// A class attribute's show() and store() (their signature is theirs alone). The const
// spellings first: a rule for the plain one would match them and keep their const.
@@
identifier fn, c, a, b;
typedef cdev_compat_attr_class, cdev_compat_class_attribute;
@@
ssize_t fn(
- const struct class *c, const struct class_attribute *a
+ cdev_compat_attr_class *c, cdev_compat_class_attribute *a
  , char *b) { ... }

@@
identifier fn, c, a, b;
typedef cdev_compat_attr_class, cdev_compat_class_attribute;
@@
ssize_t fn(
- struct class *c, struct class_attribute *a
+ cdev_compat_attr_class *c, cdev_compat_class_attribute *a
  , char *b) { ... }

@@
identifier fn, c, a, b, n;
typedef cdev_compat_attr_class, cdev_compat_class_attribute;
@@
ssize_t fn(
- const struct class *c, const struct class_attribute *a
+ cdev_compat_attr_class *c, cdev_compat_class_attribute *a
  , const char *b, size_t n) { ... }

// A static struct class: no .owner; const where class_register() takes a const class.
@@
identifier fn, c, a, b, n;
typedef cdev_compat_attr_class, cdev_compat_class_attribute;
@@
ssize_t fn(
- struct class *c, struct class_attribute *a
+ cdev_compat_attr_class *c, cdev_compat_class_attribute *a
  , const char *b, size_t n) { ... }

@@
identifier cls;
expression E;
@@
struct class cls = {
  ...,
- .owner = E,
  ...
};

@@
identifier cls;
typedef cdev_compat_static_class;
@@
- static const struct class cls
+ static cdev_compat_static_class cls
  = { ... };

@@
identifier cls;
typedef cdev_compat_static_class;
@@
- static struct class cls
+ static cdev_compat_static_class cls
  = { ... };
